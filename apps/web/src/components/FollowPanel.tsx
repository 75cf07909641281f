/**
 * Follow the data: every place the followed value appears, along the path it travelled (your message → the
 * prompt → the model's tool call → the MCP request → the notes file → the tool result → the next prompt → the reply); matches
 * inside tool definitions are listed apart, since the value did not travel there. A click opens the hop on the
 * right tab and scrolls to the match. Docked under the sequence, in both modes.
 */
import type { FollowSide } from "../models/follow-index";
import type { HopOccurrence } from "../models/FollowModel";
import { revealMatch, revealNotesChange } from "../models/reveal-match";
import { useApp } from "./AppContext";
import s from "./FollowPanel.module.css";

const SIDE: Record<FollowSide, string> = {
  request: "request",
  response: "response",
  prompt: "the prompt the model saw",
  "raw-output": "the text the model wrote",
  notes: "notes file (data/db)",
};

function Item({ o }: { o: HopOccurrence }) {
  const { ui, trace, replay } = useApp();
  const hop = trace.hops.value.find((h) => h.number === o.hop);
  function go(): void {
    replay.goTo(o.hop);
    if (o.side === "notes") return revealNotesChange(o.hop);
    ui.tab.value =
      o.side === "prompt"
        ? "saw"
        : o.side === "raw-output"
          ? "wrote"
          : hop?.kind === "mcp"
            ? "mcp"
            : hop?.kind.startsWith("agent")
              ? "agent"
              : "wire";
    revealMatch(o.side === "prompt" ? o.origin : undefined);
  }
  return (
    <li>
      <button type="button" class={s.item} onClick={go} data-hop={o.hop} data-side={o.side}>
        <span class={s.hop} data-kind={hop?.kind}>
          {o.hop || "?"}
        </span>
        <span class={s.where}>
          {SIDE[o.side]}{" "}
          {o.side === "notes" ? (
            o.path === "/before" ? (
              "— removed by this call"
            ) : (
              "— written by this call"
            )
          ) : o.path ? (
            <code>{o.path}</code>
          ) : null}
          {o.origin ? (
            <>
              {" "}
              ← from <code>{o.origin}</code>
            </>
          ) : null}
        </span>
        <span class={s.snippet}>
          {o.before}
          <mark>{o.match}</mark>
          {o.after}
        </span>
      </button>
    </li>
  );
}

export function FollowPanel() {
  const { follow, ui } = useApp();
  const { path, toolDefinitions } = follow.ordered.value;
  function close(): void {
    ui.followOpen.value = false;
  }
  const hops = follow.hopsWithMatch.value.size;
  return (
    <aside class={s.panel} aria-label="Follow the data" data-testid="follow-panel">
      <header class={s.head}>
        <h2 class={s.title}>
          Following <mark>{ui.followQuery.value}</mark>
        </h2>
        <span class={s.count}>
          {follow.loading.value
            ? "searching every hop…"
            : `${path.length} place${path.length === 1 ? "" : "s"} in ${hops} hop${hops === 1 ? "" : "s"}, in the order it travelled`}
        </span>
        <button type="button" class={s.close} onClick={close} aria-label="Close">
          ✕
        </button>
      </header>
      {path.length + toolDefinitions.length === 0 && !follow.loading.value ? (
        <p class={s.none}>Not found in this trace. Values are matched ignoring case.</p>
      ) : null}
      <div class={s.scroll}>
        <ol class={s.list} data-testid="follow-path">
          {path.map((o, i) => (
            <Item key={i} o={o} />
          ))}
        </ol>
        {toolDefinitions.length ? (
          <details class={s.apart} data-testid="follow-tool-definitions">
            <summary>
              also appears in a tool description ({toolDefinitions.length}) — the tools' own wording, not the value
              travelling
            </summary>
            <ol class={s.list}>
              {toolDefinitions.map((o, i) => (
                <Item key={i} o={o} />
              ))}
            </ol>
          </details>
        ) : null}
      </div>
    </aside>
  );
}
