/** The one thing to look at for a hop on stage: the question, the prompt, the tool call, the result, the reply. */
import { useSignal } from "@preact/signals";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { Hop } from "../models/hops";
import { inProgressNow, streamTextNow } from "../models/stream-text";
import { useApp } from "./AppContext";
import { PromptInfo } from "./PromptTab";
import { PromptText } from "./PromptText";
import s from "./PresenterFocus.module.css";

interface Props {
  hop: Hop;
  x: ExchangeSummary;
}

export function PresenterFocus({ hop, x }: Props) {
  const { trace, replay } = useApp();
  const hovered = useSignal<string | null>(null);
  const c = x.classification;
  const v = trace.views.value.get(x.id);
  const views = v?.status === "ready" ? v.value : undefined;
  switch (hop.kind) {
    case "agent-request":
      return <blockquote class={s.quote}>{c.kind === "agent" ? c.message ?? "" : `${x.method} ${x.url}`}</blockquote>;
    case "agent-response":
      return <blockquote class={`${s.quote} ${s.reply}`}>{c.kind === "agent" ? c.reply ?? "(no reply)" : String(x.status ?? "")}</blockquote>;
    case "model-request":
      return views?.prompt ? (
        <div class={s.col}>
          <PromptInfo p={views.prompt} />
          <PromptText text={views.prompt.text} segments={views.prompt.segments} hovered={hovered} newFrom={views.diff?.commonPrefixLength} large />
        </div>
      ) : (
        <p class={s.note}>Rendering the prompt…</p>
      );
    case "model-response": {
      if (inProgressNow(replay, x)) return <pre class={s.big}>{streamTextNow(trace, replay, x) ?? "…"}</pre>;
      return (
        <div class={s.col}>
          <h3 class={s.label}>The model wrote (reconstructed)</h3>
          <pre class={s.big} data-testid="presenter-output">
            {views?.rawOutput?.text ?? (c.kind === "model.chat" ? c.content ?? "" : "")}
          </pre>
        </div>
      );
    }
    case "mcp":
      return c.kind === "mcp" ? (
        <div class={s.col}>
          <p class={s.method}>
            <code>{c.method}</code> {c.toolName ? <b>{c.toolName}</b> : null}
          </p>
          {c.arguments ? <pre class={s.big}>{JSON.stringify(c.arguments, null, 2)}</pre> : null}
          {c.resultText || c.errorMessage ? (
            <>
              <h3 class={s.label}>{c.outcome === "ok" ? "Result" : c.outcome === "tool-error" ? "Tool error (for the model)" : "Protocol error (for the developer)"}</h3>
              <pre class={`${s.big} ${c.outcome === "ok" ? "" : s.err}`}>{c.resultText ?? c.errorMessage}</pre>
            </>
          ) : null}
        </div>
      ) : null;
  }
}
