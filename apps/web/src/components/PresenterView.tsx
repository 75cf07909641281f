/**
 * Presenter mode, for a projector: large type, the sequence on the left with the current hop
 * highlighted, and on the right one hop at a time — its caption and the one thing to look at.
 */
import { captionFor } from "../models/captions";
import { useApp } from "./AppContext";
import { Caption } from "./Caption";
import { PresenterFocus } from "./PresenterFocus";
import s from "./PresenterView.module.css";
import { SequenceView } from "./SequenceView";

export function PresenterView() {
  const { trace, replay, ui, traces } = useApp();
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
        <span class={s.name}>{name}</span>
        <span class={s.pos}>
          hop {hop?.number ?? "–"} of {hops[hops.length - 1]?.number ?? 0}
          {replay.playing.value ? ` · playing ${replay.speed.value}×` : ""}
        </span>
        <button type="button" class={s.leave} onClick={leave}>
          Leave <kbd>Esc</kbd>
        </button>
      </header>
      {hop ? <Caption number={hop.number} kind={hop.kind} caption={captionFor(hop, x, trace.firstModelRequestId.value)} large /> : null}
      <div class={s.stage}>
        <div class={s.sequence}>
          <SequenceView />
        </div>
        <div class={s.focus}>{hop && x ? <PresenterFocus hop={hop} x={x} /> : <p class={s.hint}>Press → to start.</p>}</div>
      </div>
      <footer class={s.foot}>
        <span>
          <kbd>←</kbd> <kbd>→</kbd> step
        </span>
        <span>
          <kbd>Space</kbd> play at recorded pace
        </span>
        <span>
          <kbd>f</kbd> faster
        </span>
        <span>
          <kbd>t</kbd> theme
        </span>
        <span>
          <kbd>?</kbd> all keys
        </span>
      </footer>
    </div>
  );
}
