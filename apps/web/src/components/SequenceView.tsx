/**
 * The sequence view: four lanes (You, Host, Model server, MCP server) and the notes file's (NotesLane), one row per numbered hop,
 * with a waterfall column on the right. Rows are virtualised (only the rows in view are rendered) so a
 * trace with 1,000 exchanges scrolls smoothly. A hop during which the notes file changed gets a band
 * below its arrows for the file's marks (models/row-layout.ts), so marks never cover arrows or labels.
 * When hops are out of view (a long lesson on a projector), the view says how many, above and below.
 */
import { useSignal, useSignalEffect, type Signal } from "@preact/signals";
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { LANES } from "../models/hops";
import { changesAt, laneMarks } from "../models/notes-view";
import { NAME_STRIP_REM, layoutRows, rowAt, type RowLayout } from "../models/row-layout";
import { useApp } from "./AppContext";
import { HopRow } from "./HopRow";
import { LANE_HELP, LANE_NAMES, LANE_X } from "./lanes";
import { TransportBadge } from "./TransportBadge";
import { NotesLane } from "./NotesLane";
import s from "./SequenceView.module.css";
import { maxOf } from "@hopscope/shared/json/extent";

/** Height of a row's arrows in rem (a row with notes-file marks adds a band below). */
const ROW_REM = 4.2;
/** Below this a row is compact: labels on one line. */
const ROOMY_REM = 3.3;
/** With `fit` (presenter mode), rows shrink down to this so a turn stays on screen: 11 hops at 1280×720; longer ones scroll, and say so. */
const MIN_FIT_REM = 2.45;
const OVERSCAN = 6;

function remPx(): number {
  return parseFloat(getComputedStyle(document.documentElement).fontSize) || 14;
}

export function SequenceView({ fit = false }: { fit?: boolean }) {
  const { trace, replay, notes } = useApp();
  const scroller = useRef<HTMLDivElement>(null);
  const scrollTop = useSignal(0);
  const viewport = useViewportHeight(scroller);
  const hops = replay.visibleHops.value;
  const xs = trace.list.value;
  const reached = xs.some((x) => x.timings.end === null)
    ? maxOf(xs.map((x) => x.timings.end ?? x.timings.firstByte ?? x.timings.start))
    : Number.POSITIVE_INFINITY;
  const marks = laneMarks(hops, changesAt(notes.changes.value, replay.start.value, replay.cursor.value), reached);
  const perRow = hops.map((h) => marks.filter((m) => m.hop === h).length);
  const rem = remPx();
  const layout = layoutRows(perRow, {
    base: ROW_REM,
    compactBelow: ROOMY_REM,
    ...(fit ? { fit: { viewport: viewport.value / rem - NAME_STRIP_REM, min: MIN_FIT_REM } } : {}),
  });
  // The effect below outlives this render: it reads the latest layout from here.
  const latest = useRef(layout);
  latest.current = layout;
  useSelectedHopInView(scroller, viewport, latest);

  function onScroll(): void {
    if (scroller.current) scrollTop.value = scroller.current.scrollTop;
  }

  const viewTop = scrollTop.value / rem - NAME_STRIP_REM;
  const viewBottom = viewTop + viewport.value / rem;
  const first = Math.max(0, rowAt(layout, viewTop) - OVERSCAN);
  const last = Math.min(hops.length, rowAt(layout, viewBottom) + 1 + OVERSCAN);
  // Hops out of view, whole or in part. The bar that says so shows whenever the rows do not fit, wherever
  // they are scrolled to (showing it makes the view shorter: it must not come and go as it scrolls).
  const overflowing = hops.length > 0 && NAME_STRIP_REM + layout.total > viewport.value / rem + 0.05;
  const above = hops.length ? layout.tops.filter((t) => t < viewTop - 0.05).length : 0;
  const below = hops.length ? layout.tops.filter((t, i) => t + (layout.heights[i] ?? 0) > viewBottom + 0.05).length : 0;
  const list = trace.list.value;
  const spanStart = replay.start.value;
  const spanEnd = Math.max(spanStart + 1, ...list.map((x) => x.timings.end ?? x.timings.firstByte ?? x.timings.start));
  function scrollBy(dir: 1 | -1): void {
    scroller.current?.scrollBy({ top: dir * viewport.value * 0.8 });
  }

  return (
    <div class={s.view}>
      <LaneNames list={list} />
      <div class={s.scroller} ref={scroller} onScroll={onScroll} data-testid="sequence">
        {hops.length === 0 ? (
          <NoHopsYet />
        ) : (
          <div
            class={s.rows}
            style={{ height: `${NAME_STRIP_REM + layout.total}rem` }}
            role="list"
            data-compact={layout.compact ? "true" : undefined}
          >
            {hops.slice(first, last).map((hop, i) => (
              <HopRow
                key={hop.number}
                hop={hop}
                top={NAME_STRIP_REM + (layout.tops[first + i] ?? 0)}
                height={layout.heights[first + i] ?? layout.arrows}
                band={(layout.heights[first + i] ?? layout.arrows) - layout.arrows}
                spanStart={spanStart}
                spanEnd={spanEnd}
              />
            ))}
            <NotesLane marks={marks} hops={hops} layout={layout} />
          </div>
        )}
        {!fit && hops.length > 0 && hops.length < 12 ? (
          <p class={s.hint}>
            Click a hop to open it · <kbd>j</kbd> <kbd>k</kbd> step · <kbd>r</kbd> replay · <kbd>p</kbd> present ·{" "}
            <kbd>?</kbd> all keys
          </p>
        ) : null}
      </div>
      {overflowing ? <HopsOutOfView above={above} below={below} scrollBy={scrollBy} /> : null}
    </div>
  );
}

/** The scroller's height in px, kept up to date as it resizes. */
function useViewportHeight(scroller: RefObject<HTMLDivElement>): Signal<number> {
  const viewport = useSignal(600);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => (viewport.value = el.clientHeight));
    ro.observe(el);
    viewport.value = el.clientHeight;
    return () => ro.disconnect();
  }, []);
  return viewport;
}

/**
 * Keeps the selected hop in view (stepping with the keyboard, replay, or a link) — and again when the view
 * changes size (a header that wraps, the overflow bar appearing).
 */
function useSelectedHopInView(
  scroller: RefObject<HTMLDivElement>,
  viewport: Signal<number>,
  latest: RefObject<RowLayout>,
): void {
  const { trace, replay } = useApp();
  useSignalEffect(() => {
    void viewport.value;
    const n = trace.selectedHop.value;
    const idx = replay.visibleHops.value.findIndex((h) => h.number === n);
    const el = scroller.current;
    const at = latest.current;
    if (idx < 0 || !el || !at) return;
    const px = remPx();
    // The first hop scrolls to the very top, so the file lane's name above it shows too.
    const top = idx === 0 ? 0 : (NAME_STRIP_REM + (at.tops[idx] ?? 0)) * px;
    const bottom = (NAME_STRIP_REM + (at.tops[idx] ?? 0) + (at.heights[idx] ?? 0)) * px;
    // Whole pixels, rounded outwards: a row's fractional edge would otherwise stay a sliver out of view.
    if (top < el.scrollTop) el.scrollTop = Math.floor(top);
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = Math.ceil(bottom - el.clientHeight);
  });
}

/** The lanes' names above the rows (the MCP lane with its transport), and the waterfall column's. */
function LaneNames({ list }: { list: readonly ExchangeSummary[] }) {
  return (
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
  );
}

/** What stands in for the rows while there are none: loading, a trace that could not be opened, or waiting. */
function NoHopsYet() {
  const { trace } = useApp();
  return (
    <p class={s.empty} role={trace.loadState.value === "missing" ? "alert" : undefined}>
      {trace.loadState.value === "loading"
        ? "Loading the trace…"
        : trace.loadState.value === "missing"
          ? `${trace.loadError.value ?? "This trace could not be opened."} Pick another trace on the left.`
          : "Waiting for the first hop…"}
    </p>
  );
}

/** Below the rows, never over them: which way the hidden hops are, and a click (or ←/→, j/k) goes there. */
function HopsOutOfView({ above, below, scrollBy }: { above: number; below: number; scrollBy(dir: 1 | -1): void }) {
  return (
    <div class={s.overflow} data-testid="hops-out-of-view">
      <button
        type="button"
        class={s.more}
        disabled={above === 0}
        onClick={() => scrollBy(-1)}
        data-testid="hops-above"
        title="Scroll up (or step back with k / ←)"
      >
        ▲ {above} hop{above === 1 ? "" : "s"} above
      </button>
      <span class={s.moreHint}>
        <kbd>←</kbd> <kbd>→</kbd> step through them
      </span>
      <button
        type="button"
        class={s.more}
        disabled={below === 0}
        onClick={() => scrollBy(1)}
        data-testid="hops-below"
        title="Scroll down (or step on with j / →)"
      >
        ▼ {below} more hop{below === 1 ? "" : "s"} below
      </button>
    </div>
  );
}
