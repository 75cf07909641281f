/**
 * A viewer following the speaker: each position the presenter publishes is applied (trace, hop,
 * presenter mode, replay cursor) while `following`; a step of the viewer's own (a click, a key) stops
 * following, and `follow()` jumps back to where the speaker is.
 */
import { batch, createModel, effect, signal, untracked } from "@preact/signals";
import type { AudienceServerFrame, PresenterPosition } from "@hopscope/shared/trace/audience";
import type { AppContext } from "../models/app-context";

export const FollowSpeakerModel = createModel((ctx: Pick<AppContext, "trace" | "ui" | "replay">) => {
  const { trace, ui, replay } = ctx;
  const following = signal(true);
  const speaker = signal<PresenterPosition | null>(null);
  const ended = signal<string | null>(null);
  let applying = false;
  /**
   * The view as the last applied position left it: a view that differs has been moved by the viewer. The
   * replay cursor is left out: models move it on their own (a new trace ends a replay), and every step
   * of the viewer's own also moves the selected hop.
   */
  let applied = "";
  const view = () => JSON.stringify([trace.traceId.value, trace.selectedHop.value, ui.presenter.value]);

  function apply(p: PresenterPosition): void {
    applying = true;
    try {
      batch(() => {
        if (p.traceId !== trace.traceId.value) {
          if (p.traceId) void trace.open(p.traceId, p.hop);
          else trace.close();
        } else if (
          p.traceId &&
          p.hop !== null &&
          trace.loadState.value === "ready" &&
          !trace.hops.value.some((h) => h.number === p.hop)
        ) {
          // The speaker is on a hop recorded after we loaded the trace: fetch it again.
          void trace.open(p.traceId, p.hop);
        }
        trace.selectedHop.value = p.hop;
        ui.presenter.value = p.present;
        if (p.replay) {
          // Streamed answers replay token by token: their chunks are needed, as when replaying locally.
          if (!replay.active.value) void trace.loadAll({ views: false, only: (x) => x.chunkCount > 0 });
          replay.pause();
          replay.speed.value = p.replay.speed;
          replay.cursor.value = p.replay.cursor;
        } else if (replay.active.value) replay.exit();
      });
    } finally {
      applying = false;
      applied = untracked(view);
    }
  }

  function onFrame(frame: AudienceServerFrame): void {
    if (frame.type === "ended") {
      ended.value = frame.message;
      return;
    }
    if (frame.type === "live") return; // the data source hands these to the trace models
    speaker.value = frame.position;
    if (following.value) apply(frame.position);
  }

  function follow(): void {
    following.value = true;
    if (speaker.value) apply(speaker.value);
  }

  // Anything that moves the view away from the speaker's last position, and is not us applying one,
  // is the viewer's own step.
  applied = untracked(view);
  effect(() => {
    const now = view();
    if (!applying && now !== applied) following.value = false;
  });

  return { following, speaker, ended, onFrame, follow };
});
export type FollowSpeakerModel = InstanceType<typeof FollowSpeakerModel>;
