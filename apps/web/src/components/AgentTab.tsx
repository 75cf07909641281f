/**
 * The user's side of the trace: the question as the host received it, and the host's answer — the
 * reply and the list of every tool call it made (the article's hop 8), parsed with the host's schemas.
 */
import {
  AgentErrorSchema,
  AgentRequestSchema,
  AgentResponseSchema,
  type AgentToolCall,
} from "@hopscope/shared/agent/schemas";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { bodyText, tryJson } from "../models/body";
import { useApp } from "./AppContext";
import s from "./AgentTab.module.css";
import { Highlighted } from "./Highlighted";
import { Loading } from "./Loading";

function ToolCalls({ calls }: { calls: AgentToolCall[] }) {
  if (calls.length === 0) return <p class={s.note}>No tools were called.</p>;
  return (
    <ol class={s.calls}>
      {calls.map((c, i) => (
        <li key={i} class={s.call} data-error={c.isError ? "true" : "false"}>
          <code class={s.name}>
            <Highlighted text={`${c.name}(${JSON.stringify(c.arguments)})`} />
          </code>
          <span class={s.arrow}>→</span>
          <code class={s.output}>
            <Highlighted text={c.output} />
          </code>
          {c.isError ? <span class={s.badge}>error the model saw</span> : null}
        </li>
      ))}
    </ol>
  );
}

export function AgentTab({ x, side }: { x: ExchangeSummary; side: "request" | "response" }) {
  const { trace } = useApp();
  return (
    <Loading value={trace.full.value.get(x.id)} what="the exchange" retry={() => void trace.loadExchange(x.id)}>
      {(e) => {
        if (side === "request") {
          const req = AgentRequestSchema.safeParse(tryJson(bodyText(e.requestBody)));
          if (!req.success) return <p class={s.note}>The request is not an /agent question; see the Wire tab.</p>;
          return (
            <div class={s.tab}>
              <h3 class={s.heading}>You asked</h3>
              <blockquote class={s.quote}>
                <Highlighted text={req.data.message} />
              </blockquote>
              <p class={s.note}>
                {req.data.conversationId
                  ? `Continuing conversation ${req.data.conversationId}: the host will resend everything said so far to the model.`
                  : "A new conversation. The host keeps its history; the model will remember nothing between calls."}
              </p>
            </div>
          );
        }
        const body = tryJson(bodyText(e.responseBody));
        const ok = AgentResponseSchema.safeParse(body);
        if (ok.success) {
          return (
            <div class={s.tab}>
              <h3 class={s.heading}>The host replied</h3>
              <blockquote class={`${s.quote} ${s.reply}`}>
                <Highlighted text={ok.data.reply} />
              </blockquote>
              <p class={s.note}>
                The host asked the model {ok.data.steps} time{ok.data.steps === 1 ? "" : "s"} and ran{" "}
                {ok.data.toolCalls.length} tool call
                {ok.data.toolCalls.length === 1 ? "" : "s"}:
              </p>
              <ToolCalls calls={ok.data.toolCalls} />
            </div>
          );
        }
        const err = AgentErrorSchema.safeParse(body);
        if (err.success) {
          return (
            <div class={s.tab}>
              <h3 class={s.heading}>The host gave up</h3>
              <blockquote class={`${s.quote} ${s.failed}`}>{err.data.error}</blockquote>
              {err.data.toolCalls ? <ToolCalls calls={err.data.toolCalls} /> : null}
            </div>
          );
        }
        return <p class={s.note}>No answer from the host yet, or not one it documents; see the Wire tab.</p>;
      }}
    </Loading>
  );
}
