/**
 * The sequence view: four lanes (You, Host, Model server, MCP server) and the notes file's (NotesLane), one row per numbered hop,
 * with a waterfall column on the right. Rows are virtualised (only the rows in view are rendered) so a
 * trace with 1,000 exchanges scrolls smoothly.
 */
import { useSignal, useSignalEffect } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { LANES } from "../models/hops";
import { useApp } from "./AppContext";
import { HopRow } from "./HopRow";
import { LANE_HELP, LANE_NAMES, LANE_X } from "./lanes";
import { TransportBadge } from "./TransportBadge";
import { NotesLane } from "./NotesLane";
import s from "./SequenceView.module.css";

/** Row height in rem; rows are absolutely positioned at index × height. */
const ROW_REM = 4.2;
/** With `fit` (presenter mode), rows shrink down to this (two label lines) so a turn stays on screen: 9 hops at 1280×720; longer ones scroll. */
const MIN_FIT_REM = 3.3;
const OVERSCAN = 6;

function remPx(): number {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 14;
}

export function SequenceView({ fit = false }: { fit?: boolean }) {
  const { trace, replay } = useApp();
  const scroller = useRef<HTMLDivElement>(null);
  const scrollTop = useSignal(0);
  const viewport = useSignal(600);
  const hops = replay.visibleHops.value;
  const rowRem = fit && hops.length > 0 ? Math.min(ROW_REM, Math.max(MIN_FIT_REM, viewport.value / remPx() / hops.length)) : ROW_REM;
  const rowPx = rowRem * remPx();

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => (viewport.value = el.clientHeight));
    ro.observe(el);
    viewport.value = el.clientHeight;
    return () => ro.disconnect();
  }, []);

  // Keep the selected hop in view (stepping with the keyboard, replay, or a link).
  useSignalEffect(() => {
    const n = trace.selectedHop.value;
    const idx = replay.visibleHops.value.findIndex((h) => h.number === n);
    const el = scroller.current;
    if (idx < 0 || !el) return;
    const top = idx * rowPx;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowPx > el.scrollTop + el.clientHeight) el.scrollTop = top + rowPx - el.clientHeight;
  });

  function onScroll(): void {
    if (scroller.current) scrollTop.value = scroller.current.scrollTop;
  }

  const first = Math.max(0, Math.floor(scrollTop.value / rowPx) - OVERSCAN);
  const last = Math.min(hops.length, Math.ceil((scrollTop.value + viewport.value) / rowPx) + OVERSCAN);
  const list = trace.list.value;
  const spanStart = replay.start.value;
  const spanEnd = Math.max(spanStart + 1, ...list.map((x) => x.timings.end ?? x.timings.firstByte ?? x.timings.start));

  return (
    <div class={s.view}>
      <div class={s.header}>
        <div class={s.lanes}>
          {LANES.map((l) => (
            <span key={l} class={s.laneName} data-lane={l} style={{ left: `${LANE_X[l]}%` }} title={LANE_HELP[l]}>
              {LANE_NAMES[l]}
              {l === "mcp" ? <TransportBadge exchanges={list} /> : null}
            </span>
          ))}
        </div>
        <span class={s.wfHead}>time →</span>
      </div>
      <div class={s.scroller} ref={scroller} onScroll={onScroll} data-testid="sequence">
        {hops.length === 0 ? (
          <p class={s.empty} role={trace.loadState.value === "missing" ? "alert" : undefined}>
            {trace.loadState.value === "loading"
              ? "Loading the trace…"
              : trace.loadState.value === "missing"
                ? `${trace.loadError.value ?? "This trace could not be opened."} Pick another trace on the left.`
                : "Waiting for the first hop…"}
          </p>
        ) : (
          <div class={s.rows} style={{ height: `${hops.length * rowRem}rem` }} role="list">
            {hops.slice(first, last).map((hop, i) => (
              <HopRow key={hop.number} hop={hop} top={(first + i) * rowRem} height={rowRem} spanStart={spanStart} spanEnd={spanEnd} />
            ))}
            <NotesLane hops={hops} rowRem={rowRem} />
          </div>
        )}
        {!fit && hops.length > 0 && hops.length < 12 ? (
          <p class={s.hint}>
            Click a hop to open it · <kbd>j</kbd> <kbd>k</kbd> step · <kbd>r</kbd> replay · <kbd>p</kbd> present · <kbd>?</kbd> all keys
          </p>
        ) : null}
      </div>
    </div>
  );
}
