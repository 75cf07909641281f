/**
 * The selected hop in detail: a plain-language caption, then tabs that fit the hop — the wire bytes,
 * what the model saw, what it wrote, what is new since the last request, the MCP call, and timing.
 */
import type { HopKind } from "../models/hops";
import { captionFor } from "../models/captions";
import { streamStateNow } from "../models/stream-state-now";
import type { DetailTab } from "../models/UiModel";
import { AgentTab } from "./AgentTab";
import { useApp } from "./AppContext";
import { Caption } from "./Caption";
import { LineNote } from "./LineNote";
import { DiffTab } from "./DiffTab";
import s from "./HopDetail.module.css";
import { McpTab } from "./McpTab";
import { NotesChangePanel } from "./NotesChangePanel";
import { OutputTab } from "./OutputTab";
import { PromptTab } from "./PromptTab";
import { TimingTab } from "./TimingTab";
import { TokenBudget } from "./TokenBudget";
import { WireTab } from "./WireTab";

export const TAB_LABELS: Record<DetailTab, string> = {
  agent: "Conversation",
  wire: "Wire",
  saw: "What the model saw",
  budget: "Token budget",
  wrote: "What the model wrote",
  diff: "What's new",
  mcp: "MCP",
  timing: "Timing",
};

export function tabsFor(kind: HopKind, isLaterModelRequest: boolean): DetailTab[] {
  switch (kind) {
    case "model-request":
      // A resent request's lesson is what is new: it opens on the diff, not on a prompt that looks like the first.
      return isLaterModelRequest ? ["diff", "saw", "budget", "wire", "timing"] : ["saw", "budget", "wire", "timing"];
    case "model-response":
      return ["wrote", "wire", "timing"];
    case "mcp":
      return ["mcp", "wire", "timing"];
    case "agent-request":
    case "agent-response":
      return ["agent", "wire", "timing"];
  }
}

export function HopDetail() {
  const { trace, ui, replay, followLive } = useApp();
  const hop = trace.selected.value;
  if (!hop) {
    return (
      <aside class={s.detail}>
        <p class={s.hint}>
          Select a hop on the left — or press <kbd>j</kbd> to step through them — to see it in detail.
        </p>
      </aside>
    );
  }
  const x = trace.exchanges.value.get(hop.exchangeId);
  const prev = x && hop.kind === "model-request" ? trace.previousModelRequest(x.id) : undefined;
  const tabs = tabsFor(hop.kind, prev !== undefined);
  const tab = ui.tab.value && tabs.includes(ui.tab.value) ? ui.tab.value : (tabs[0] as DetailTab);
  const caption = captionFor(
    hop,
    x,
    trace.firstModelRequestId.value,
    x ? streamStateNow(trace, replay, x, followLive.now.value) : undefined,
    x ? trace.roles.value.get(x.id) : undefined,
  );
  function select(t: DetailTab): void {
    ui.tab.value = t;
  }
  function onMouseUp(): void {
    const text = window.getSelection()?.toString().trim() ?? "";
    ui.selection.value = text.length >= 2 && text.length <= 120 && !text.includes("\n") ? text : null;
  }
  function followSelection(): void {
    if (ui.selection.value) ui.follow(ui.selection.value);
  }
  return (
    <aside class={s.detail} aria-label={`Hop ${hop.number} in detail`} data-testid="hop-detail">
      <Caption number={hop.number} kind={hop.kind} caption={caption} />
      <LineNote hop={hop} />
      <NotesChangePanel hop={hop} />
      <div class={s.tabs} role="tablist">
        {tabs.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={t === tab}
            class={`${s.tab} ${t === tab ? s.on : ""}`}
            onClick={() => select(t)}
            data-tab={t}
          >
            {TAB_LABELS[t]}
          </button>
        ))}
      </div>
      {ui.selection.value ? (
        <button type="button" class={s.followSel} onClick={followSelection} data-testid="follow-selection">
          Follow <mark>{ui.selection.value}</mark> across every hop →
        </button>
      ) : null}
      <div class={s.body} role="tabpanel" onMouseUp={onMouseUp}>
        {!x ? null : tab === "wire" ? (
          <WireTab x={x} responseFirst={hop.kind === "model-response" || hop.kind === "agent-response"} />
        ) : tab === "agent" ? (
          <AgentTab x={x} side={hop.kind === "agent-request" ? "request" : "response"} />
        ) : tab === "saw" ? (
          <PromptTab x={x} />
        ) : tab === "budget" ? (
          <TokenBudget x={x} />
        ) : tab === "wrote" ? (
          <OutputTab x={x} />
        ) : tab === "diff" && prev ? (
          <DiffTab x={x} prev={prev} />
        ) : tab === "mcp" ? (
          <McpTab x={x} />
        ) : (
          <TimingTab x={x} />
        )}
      </div>
    </aside>
  );
}
