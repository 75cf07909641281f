/**
 * Presenter mode, for a projector: large type; on the left the whole sequence (every hop fits, the current
 * one highlighted), on the right one hop at a time — its caption and its payload, the one thing to look at.
 */
import type { ComponentChildren } from "preact";
import { captionFor } from "../models/captions";
import { streamStateNow } from "../models/stream-state-now";
import { NotesChangePanel } from "./NotesChangePanel";
import { useApp } from "./AppContext";
import { Caption } from "./Caption";
import { FollowPanel } from "./FollowPanel";
import { PresenterFocus } from "./PresenterFocus";
import s from "./PresenterView.module.css";
import { ReplayStatus } from "./ReplayStatus";
import { SequenceView } from "./SequenceView";
import { ZoomControl } from "./ZoomControl";

/**
 * `status`: what the header says about following, and the control that changes it — the live UI's
 * "Following live" bar, the audience viewer's "Following the speaker"; nothing on a shared file, where
 * there is nothing to follow (a control that does nothing for this viewer is not shown).
 */
export function PresenterView({ status }: { status?: ComponentChildren }) {
  const { trace, replay, ui, traces, followLive } = useApp();
  const hop = trace.selected.value;
  const x = hop ? trace.exchanges.value.get(hop.exchangeId) : undefined;
  const hops = trace.hops.value;
  const name = traces.traces.value.find((t) => t.id === trace.traceId.value)?.name ?? trace.summary.value?.name ?? "";
  function leave(): void {
    ui.presenter.value = false;
  }
  return (
    <div class={s.presenter} data-testid="presenter">
      <header class={s.head}>
        <span class={s.brand}>hopscope</span>
        {/* The question, as the room must read it: up to two lines, clamped only beyond that (whole in its tooltip). */}
        <span class={s.name} title={name} data-testid="presenter-title">
          {name}
        </span>
        <span class={s.pos}>
          hop {hop?.number ?? "–"} of {hops[hops.length - 1]?.number ?? 0}
        </span>
        {status}
        <ReplayStatus />
        <ZoomControl />
        <button type="button" class={s.leave} onClick={leave}>
          Leave <kbd>Esc</kbd>
        </button>
      </header>
      <div class={s.stage}>
        <div class={s.sequence}>
          <SequenceView fit />
          {ui.followOpen.value ? <FollowPanel /> : null}
        </div>
        <div class={s.right}>
          {hop ? (
            <Caption
              number={hop.number}
              kind={hop.kind}
              caption={captionFor(
                hop,
                x,
                trace.firstModelRequestId.value,
                x ? streamStateNow(trace, replay, x, followLive.now.value) : undefined,
                x ? trace.roles.value.get(x.id) : undefined,
              )}
              large
            />
          ) : null}
          <div class={s.focus} data-testid="presenter-focus">
            {hop ? <NotesChangePanel hop={hop} large /> : null}
            {hop && x ? <PresenterFocus hop={hop} x={x} /> : <p class={s.hint}>Press → to start.</p>}
          </div>
        </div>
      </div>
      <footer class={s.foot}>
        <span>
          <kbd>←</kbd> <kbd>→</kbd> step
        </span>
        <span>
          <kbd>r</kbd> narrate from the start, then <kbd>Space</kbd> next
        </span>
        <span>
          <kbd>m</kbd> step / auto
        </span>
        <span>
          <kbd>f</kbd> speed
        </span>
        <span>
          <kbd>?</kbd> all keys
        </span>
      </footer>
    </div>
  );
}
