/**
 * The presenter's side of the audience view: the session's state from the recorder (`GET /api/audience`,
 * polled: the viewer count changes on its own), and the presenter's position published to it whenever
 * the trace, hop, presenter mode or replay moves (at most every PUBLISH_MS, the last one always sent).
 */
import { createModel, effect, signal } from "@preact/signals";
import { AudienceStatusSchema, type AudienceStatus, type PresenterPosition } from "@hopscope/shared/trace/audience";
import { getJson, send } from "../api/http";
import type { AppContext } from "../models/app-context";

const POLL_MS = 3000;
/** A replay moves the cursor with every streamed token; viewers need no more than ten positions a second. */
const PUBLISH_MS = 100;

export const PresenterAudienceModel = createModel((ctx: Pick<AppContext, "trace" | "ui" | "replay">) => {
  const status = signal<AudienceStatus>({ state: "off" });
  const error = signal<string | null>(null);
  const qrOpen = signal(false);
  let pollTimer: ReturnType<typeof setTimeout> | null = null;
  let publishTimer: ReturnType<typeof setTimeout> | null = null;
  let lastSent = 0;
  let disposed = false;

  async function refresh(): Promise<void> {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
    try {
      status.value = await getJson("/api/audience", AudienceStatusSchema);
      error.value = null;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      console.warn("[hopscope] the audience view's state could not be read", e);
    }
    if (!disposed && status.value.state !== "off" && !pollTimer) pollTimer = setTimeout(() => void refresh(), POLL_MS);
  }

  function position(): PresenterPosition {
    const { trace, ui, replay } = ctx;
    const cursor = replay.cursor.value;
    return {
      traceId: trace.traceId.value,
      hop: trace.selectedHop.value,
      present: ui.presenter.value,
      replay: cursor === null ? null : { cursor, playing: replay.playing.value, speed: replay.speed.value },
    };
  }

  async function publish(): Promise<void> {
    publishTimer = null;
    lastSent = Date.now();
    try {
      await send("PUT", "/api/audience/position", position(), null);
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  }

  effect(() => {
    if (status.value.state !== "open") return;
    position(); // subscribe to everything the position is made of
    if (publishTimer) return;
    publishTimer = setTimeout(() => void publish(), Math.max(0, lastSent + PUBLISH_MS - Date.now()));
  });

  async function act(path: "/api/audience/end" | "/api/audience/restart"): Promise<void> {
    try {
      status.value = (await send("POST", path, undefined, AudienceStatusSchema)) ?? status.value;
      if (status.value.state === "open") void publish();
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
    }
  }

  void refresh();
  effect(() => () => {
    disposed = true;
    if (pollTimer) clearTimeout(pollTimer);
    if (publishTimer) clearTimeout(publishTimer);
  });

  /** Opens or closes the join panel; opening it asks for the viewer count at once. */
  function toggleQr(): void {
    qrOpen.value = !qrOpen.value;
    if (qrOpen.value) void refresh();
  }

  return {
    status,
    error,
    qrOpen,
    toggleQr,
    end: () => act("/api/audience/end"),
    restart: () => act("/api/audience/restart"),
  };
});
export type PresenterAudienceModel = InstanceType<typeof PresenterAudienceModel>;
