/**
 * One numbered hop in the sequence view: its arrow(s) between lanes with the number, a label and the
 * duration, and its bar in the waterfall. Errors are red; MCP tool errors (a result the model can fix)
 * are amber, protocol errors (a bug in the caller) red; a response still streaming is drawn dashed and
 * shows its text arriving.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { formatBytes, formatMs } from "../models/body";
import { arrowLabel } from "../models/captions";
import { LANES, type Arrow, type Hop } from "../models/hops";
import { outcomeOf } from "../models/outcome";
import { isSideRole, lineMarkOf } from "../models/request-lines";
import { inProgressNow, streamTextNow } from "../models/stream-text";
import { useApp } from "./AppContext";
import s from "./HopRow.module.css";
import { LANE_X } from "./lanes";
import { LineMark } from "./LineMark";
import { Waterfall } from "./Waterfall";

interface Props {
  hop: Hop;
  top: number;
  height: number;
  /** Height (rem) of the band below the arrows kept free for the notes file's marks. */
  band?: number;
  spanStart: number;
  spanEnd: number;
}

function ArrowLine({ arrow, x, hop, double }: { arrow: Arrow; x: ExchangeSummary; hop: Hop; double: boolean }) {
  const { trace, replay } = useApp();
  const { left, width, dir, labelRight, labelStyle, detailStyle } = arrowPlacement(arrow);
  const response = arrow.direction === "response";
  const streaming = response && inProgressNow(replay, x);
  const streamed = response ? streamTextNow(trace, replay, x) : null;
  const label = streaming && streamed !== null ? streamingLabel(streamed) : arrowLabel(hop, x, arrow.direction);
  const detail = response ? responseDetail(x, streaming) : x.requestSize ? formatBytes(x.requestSize) : "";
  const place = double ? (response ? s.lower : s.upper) : s.single;
  return (
    <>
      <div
        class={`${s.arrow} ${place} ${streaming ? s.streaming : ""}`}
        data-dir={dir}
        data-direction={arrow.direction}
        data-streaming={streaming ? "true" : undefined}
        style={{ left: `${left}%`, width: `${width}%` }}
      >
        <span class={s.line} />
      </div>
      <span class={`${s.label} ${place}`} data-align={labelRight ? "start" : "end"} style={labelStyle} title={label}>
        <span class={s.labelText} data-label="">
          {label}
        </span>
        {streaming ? <span class={s.caret} aria-hidden="true" /> : null}
      </span>
      {detail && !double ? (
        <span class={`${s.detail} ${response ? s.duration : ""}`} style={detailStyle}>
          {detail}
        </span>
      ) : null}
    </>
  );
}

/** Where an arrow runs between its lanes (percent of the row), and where its label and detail go. */
function arrowPlacement(arrow: Arrow) {
  const from = LANE_X[arrow.from] ?? 0;
  const to = LANE_X[arrow.to] ?? 0;
  const dir = to > from ? "right" : "left";
  // The label may use the free space beyond the arrow: rightward arrows extend it to the right edge,
  // leftward ones to the left edge, so "tool_calls: append({...})" is readable, not "tool_c…".
  // A leftward arrow from a lane left of centre (host → you) has more room on its right: put it there.
  const labelRight = dir === "right" || from < 50;
  return {
    left: Math.min(from, to),
    width: Math.abs(to - from),
    dir,
    labelRight,
    labelStyle: labelRight ? { left: `${from}%`, right: "0.5%" } : { left: "0.5%", right: `${100 - from}%` },
    detailStyle: labelRight ? { left: `${from}%` } : { right: `${100 - from}%` },
  };
}

/** While streaming, the label shows the newest text (its end), as it arrives. */
function streamingLabel(streamed: string): string {
  return streamed ? `…${streamed.replace(/\s+/g, " ").slice(-36)}` : "streaming…";
}

/** One duration per exchange: under its response arrow in presenter mode (the waterfall carries it otherwise). */
function responseDetail(x: ExchangeSummary, streaming: boolean): string {
  return x.timings.end !== null && !streaming ? formatMs(x.timings.end - x.timings.start) : "…";
}

export function HopRow({ hop, top, height, band = 0, spanStart, spanEnd }: Props) {
  const { trace, replay, follow } = useApp();
  const x = trace.exchanges.value.get(hop.exchangeId);
  if (!x) return null;
  const selected = trace.selectedHop.value === hop.number;
  const outcome = outcomeOf(x);
  const matched = follow.hopsWithMatch.value.has(hop.number);
  // A retry or side request is marked on its request's hop; a side request's answer is drawn faint too.
  const role = trace.roles.value.get(hop.exchangeId);
  const mark = hop.kind === "model-request" ? lineMarkOf(hop, trace.roles.value) : null;
  const line = isSideRole(role) ? "side" : role?.role;
  function onClick(): void {
    replay.goTo(hop.number);
  }
  return (
    <div
      class={`${s.row} ${selected ? s.selected : ""} ${matched ? s.matched : ""}`}
      style={{ top: `${top}rem`, height: `${height}rem` }}
      data-hop={hop.number}
      data-kind={hop.kind}
      data-outcome={outcome === "protocol-error" ? "error" : outcome}
      data-selected={selected ? "true" : "false"}
      data-line={line}
      role="listitem"
      onClick={onClick}
      aria-label={mark ? `Hop ${hop.number}, ${mark.label}` : `Hop ${hop.number}`}
    >
      {/* The lifelines run the row's whole height, through the notes band below the arrows too. */}
      <div class={s.lifelines} aria-hidden="true">
        {LANES.map((l) => (
          <i key={l} class={s.lifeline} data-lane={l} style={{ left: `${LANE_X[l]}%` }} />
        ))}
      </div>
      <div class={s.lanes} style={band > 0 ? { marginBottom: `${band}rem` } : undefined}>
        <span class={s.number} data-number="" style={{ left: `${LANE_X[hop.arrows[0]?.from ?? "host"]}%` }}>
          {hop.number}
        </span>
        {hop.arrows.map((a) => (
          <ArrowLine key={a.direction} arrow={a} x={x} hop={hop} double={hop.arrows.length > 1} />
        ))}
        {mark ? <LineMark mark={mark} /> : null}
        {outcome === "tool-error" ? (
          <span class={`${s.flag} ${s.toolError}`} data-flag="">
            tool error
          </span>
        ) : null}
        {outcome === "error" || outcome === "protocol-error" ? (
          <span class={`${s.flag} ${s.error}`} data-flag="">
            {outcome === "protocol-error" ? "protocol error" : "error"}
          </span>
        ) : null}
      </div>
      <Waterfall hop={hop} x={x} spanStart={spanStart} spanEnd={spanEnd} />
    </div>
  );
}
