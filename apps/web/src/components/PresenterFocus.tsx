/**
 * The payload of a hop on stage, readable from the back of the room: the question; the tools table (hop 2);
 * the prompt with its end in view and what the tools cost (hop 3), or what is new (a resent request); what the
 * model wrote; the tool call and its result, with which kind of error it was; the reply and every call made.
 */
import { useSignal, type Signal } from "@preact/signals";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { bodyText } from "../models/body";
import { generatedAgreement } from "../models/budget";
import type { Hop } from "../models/hops";
import { inProgressNow, streamTextNow } from "../models/stream-text";
import { toolRows } from "../models/tools-table";
import { AgentTab } from "./AgentTab";
import { useApp } from "./AppContext";
import { OUTCOME } from "./McpTab";
import { PromptInfo } from "./PromptTab";
import { PromptText } from "./PromptText";
import s from "./PresenterFocus.module.css";
import { TokenBudget } from "./TokenBudget";
import { ToolsTable } from "./ToolsTable";

interface Props {
  hop: Hop;
  x: ExchangeSummary;
}

function McpFocus({ x }: { x: ExchangeSummary }) {
  const { trace } = useApp();
  const c = x.classification;
  if (c.kind !== "mcp") return null;
  const full = trace.full.value.get(x.id);
  const tools =
    c.method === "tools/list" && full?.status === "ready" ? toolRows(bodyText(full.value.responseBody)) : null;
  const o = OUTCOME[c.outcome];
  return (
    <div class={s.col}>
      <p class={s.method}>
        <code>{c.method}</code> {c.toolName ? <b>{c.toolName}</b> : null}
      </p>
      {tools ? (
        <ToolsTable rows={tools} />
      ) : c.method === "tools/list" ? (
        <p class={s.note}>Loading the tools…</p>
      ) : null}
      {c.arguments ? (
        <>
          <h3 class={s.label}>Arguments (chosen by the model, sent by the host)</h3>
          <pre class={s.big}>{JSON.stringify(c.arguments, null, 2)}</pre>
        </>
      ) : null}
      {c.resultText || c.errorMessage ? (
        <>
          <h3 class={s.label}>
            {c.outcome === "ok"
              ? "Result (pasted back to the model)"
              : c.outcome === "tool-error"
                ? "Tool error (for the model)"
                : "Protocol error (for the developer)"}
          </h3>
          <pre class={`${s.big} ${c.outcome === "ok" ? "" : s.err}`} data-testid="presenter-result">
            {c.errorCode !== undefined ? `${c.errorCode} ` : ""}
            {c.resultText ?? c.errorMessage}
          </pre>
        </>
      ) : null}
      {c.method === "tools/call" && o ? (
        <p class={s.explain} data-outcome={c.outcome}>
          <b>{o.label}:</b> {o.text}
        </p>
      ) : null}
    </div>
  );
}

/** The prompt as the model received it, its end in view, with what it cost (or what is new since the last one). */
function PromptFocus({
  x,
  views,
  hovered,
}: {
  x: ExchangeSummary;
  views?: ExchangeViews;
  hovered: Signal<string | null>;
}) {
  const c = x.classification;
  if (!views?.prompt) return <p class={s.note}>Rendering the prompt…</p>;
  return (
    <div class={`${s.col} ${s.fill}`}>
      <PromptInfo p={views.prompt} promptEvalCount={c.kind === "model.chat" ? c.promptEvalCount : undefined} />
      <TokenBudget x={x} compact />
      {views.diff ? (
        <h3 class={s.label}>New since the previous request (dimmed: resent)</h3>
      ) : (
        <h3 class={s.label}>The prompt, as the model received it — its end</h3>
      )}
      {/* Its own scroll box, so opening at the prompt's end keeps the counts above in view. */}
      <div class={s.scroll}>
        <PromptText
          text={views.prompt.text}
          segments={views.prompt.segments}
          hovered={hovered}
          newFrom={views.diff?.commonPrefixLength}
          large
        />
      </div>
    </div>
  );
}

/** What the model wrote: streaming in as it arrives, then reconstructed whole, with its token count checked. */
function OutputFocus({ x, views }: { x: ExchangeSummary; views?: ExchangeViews }) {
  const { trace, replay } = useApp();
  const c = x.classification;
  if (inProgressNow(replay, x)) return <pre class={s.big}>{streamTextNow(trace, replay, x) ?? "…"}</pre>;
  return (
    <div class={s.col}>
      <h3 class={s.label}>The model wrote (reconstructed)</h3>
      <pre class={s.big} data-testid="presenter-output">
        {views?.rawOutput?.text ?? (c.kind === "model.chat" ? (c.content ?? "") : "")}
      </pre>
      {views?.rawOutput?.tokens ? (
        <p class={s.note}>
          {generatedAgreement(views.rawOutput.tokens.count, c.kind === "model.chat" ? c.evalCount : undefined)}
        </p>
      ) : null}
    </div>
  );
}

export function PresenterFocus({ hop, x }: Props) {
  const { trace } = useApp();
  const hovered = useSignal<string | null>(null);
  const c = x.classification;
  const v = trace.views.value.get(x.id);
  const views = v?.status === "ready" ? v.value : undefined;
  switch (hop.kind) {
    case "agent-request":
      return <blockquote class={s.quote}>{c.kind === "agent" ? (c.message ?? "") : `${x.method} ${x.url}`}</blockquote>;
    case "agent-response":
      return (
        <div class={s.agent} data-testid="presenter-reply">
          <AgentTab x={x} side="response" />
        </div>
      );
    case "model-request":
      return <PromptFocus x={x} views={views} hovered={hovered} />;
    case "model-response":
      return <OutputFocus x={x} views={views} />;
    case "mcp":
      return <McpFocus x={x} />;
  }
}
