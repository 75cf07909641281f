/**
 * The mark on a model request's hop that is not the run's main line: "↻ retry of hop 3" (a button: it goes
 * to the first attempt) or "↳ side request: title generation". Its sentence says why, on hover and to a
 * screen reader; the hop's detail says it in full (LineNote).
 */
import type { LineMark as Mark } from "../models/request-lines";
import { useApp } from "./AppContext";
import s from "./LineMark.module.css";

export function LineMark({ mark }: { mark: Mark }) {
  const { replay } = useApp();
  if (mark.kind === "side") {
    return (
      <span class={`${s.mark} ${s.side}`} data-line-mark="side" title={mark.why}>
        <span aria-hidden="true">↳ </span>
        {mark.label}
      </span>
    );
  }
  function goToFirst(e: MouseEvent): void {
    // The row under the mark opens this hop on click; the mark goes to the attempt it repeats.
    e.stopPropagation();
    if (mark.kind === "retry") replay.goTo(mark.ofHop);
  }
  return (
    <button
      type="button"
      class={`${s.mark} ${s.retry}`}
      data-line-mark="retry"
      title={`${mark.why} Go to hop ${mark.ofHop}.`}
      aria-label={`${mark.label}: ${mark.why} Go to hop ${mark.ofHop}.`}
      onClick={goToFirst}
    >
      <span aria-hidden="true">↻ </span>
      {/* "hop 3" stays on one line when a narrow view wraps the words. */}
      {mark.label.replace(/ (\d+)$/, "\u00a0$1")}
    </button>
  );
}
