/**
 * A banner across the top when recording is not reaching the disk: the agent's traffic still flows (a full
 * or locked disk never stops the taps), but what it does is not being kept, and a teacher must know before
 * relying on the trace. After a recovery, a dismissible line says how many exchanges were lost, and when.
 */
import { useEffect } from "preact/hooks";
import { lastLossAt } from "../models/StorageModel";
import { useApp } from "./AppContext";
import s from "./StorageBanner.module.css";

function ids(list: number[]): string {
  return list.length === 0
    ? ""
    : ` (latest: ${list
        .slice(-5)
        .map((i) => `#${i}`)
        .join(", ")})`;
}

export function StorageBanner() {
  const { storage: model } = useApp();
  useEffect(() => model.start(), [model]);
  const notice = model.notice.value;
  const h = model.health.value;
  if (!notice || !h) return null;
  if (notice === "failing") {
    return (
      <div class={`${s.banner} ${s.failing}`} role="alert" data-testid="storage-banner" data-state="failing">
        <strong class={s.title}>Not recording to disk.</strong>
        <span class={s.text}>
          Your agent still works: every request is forwarded. But {h.notStored} exchange
          {h.notStored === 1 ? " was" : "s were"} not stored{ids(h.lastNotStored)}, and new ones may not be. Recording
          resumes by itself when the disk does.{lastLossAt(h.lastNotStoredAt)}
        </span>
        <code class={s.error} title={h.error ?? ""}>
          {h.error}
        </code>
      </div>
    );
  }
  return (
    <div class={`${s.banner} ${s.recovered}`} role="status" data-testid="storage-banner" data-state="recovered">
      <strong class={s.title}>Recording resumed.</strong>
      <span class={s.text}>
        {h.notStored} exchange{h.notStored === 1 ? " was" : "s were"} forwarded but not stored while it failed
        {ids(h.lastNotStored)}.{lastLossAt(h.lastNotStoredAt)}
      </span>
      <button type="button" class={s.dismiss} onClick={() => model.dismiss()}>
        Dismiss
      </button>
    </div>
  );
}
