/**
 * A banner across the top when recording is not reaching the disk: the agent's traffic still flows (a full
 * or locked disk never stops the taps), but what it does is not being kept, and a teacher must know before
 * relying on the trace. After a recovery, a dismissible line says how many exchanges were lost, and when.
 */
import { useEffect, useMemo } from "preact/hooks";
import { StorageModel } from "../models/StorageModel";
import s from "./StorageBanner.module.css";

function ids(list: number[]): string {
  return list.length === 0
    ? ""
    : ` (latest: ${list
        .slice(-5)
        .map((i) => `#${i}`)
        .join(", ")})`;
}

/** " The last at 14:03:22." (local time) when the recorder says when it last lost one. */
function lastAt(at: number | null | undefined): string {
  if (!at) return "";
  const d = new Date(at);
  const t = [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
  return ` The last at ${t}.`;
}

export function StorageBanner() {
  const model = useMemo(() => new StorageModel(), []);
  useEffect(() => {
    model.start();
    return () => model.dispose();
  }, [model]);
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
          resumes by itself when the disk does.{lastAt(h.lastNotStoredAt)}
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
        {ids(h.lastNotStored)}.{lastAt(h.lastNotStoredAt)}
      </span>
      <button type="button" class={s.dismiss} onClick={() => model.dismiss()}>
        Dismiss
      </button>
    </div>
  );
}
