/**
 * One MCP message: method, tool, arguments, and the result — and, for a failed tools/call, which of
 * MCP's two kinds of error it was: a protocol error (JSON-RPC `error`: a bug for the developer) or a
 * tool error (`result.isError: true`: a message for the model, which can fix its call and retry).
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { bodyText, jsonValues } from "../models/body";
import { isNoStreamAnswer, NO_STREAM_NOTE } from "../models/outcome";
import { useApp } from "./AppContext";
import { Highlighted } from "./Highlighted";
import { McpSseEvents } from "./McpSseEvents";
import s from "./McpTab.module.css";
import { toolRows } from "../models/tools-table";
import { ToolsTable } from "./ToolsTable";

export const OUTCOME: Record<string, { label: string; text: string }> = {
  ok: { label: "ok", text: "The call succeeded." },
  "tool-error": {
    label: "tool error",
    text: "A normal result with isError: true. It is meant for the model: the host pastes it back, and the model can correct its arguments and try again.",
  },
  "protocol-error": {
    label: "protocol error",
    text: "A JSON-RPC error object: the request itself was invalid (unknown tool, bad JSON, missing headers). It is a bug in the caller, for the developer — not something the model can fix.",
  },
  "not-offered": {
    label: "not offered",
    text: "JSON-RPC -32601 (method not found) to an optional question such as prompts/list: this server offers none. Not an error.",
  },
  notification: { label: "notification", text: "A JSON-RPC notification: no id, so no answer is expected." },
  "http-error": {
    label: "HTTP error",
    text: "The MCP server answered with an HTTP error status and no JSON-RPC message.",
  },
  pending: { label: "waiting", text: "No answer yet." },
};

type McpClassification = Extract<ExchangeSummary["classification"], { kind: "mcp" }>;

export function McpTab({ x }: { x: ExchangeSummary }) {
  const { trace } = useApp();
  const c = x.classification;
  if (c.kind !== "mcp")
    return <p class={s.note}>{isNoStreamAnswer(x) ? NO_STREAM_NOTE : "This exchange is not an MCP message."}</p>;
  const full = trace.full.value.get(x.id);
  const responseText = full?.status === "ready" ? bodyText(full.value.responseBody) : "";
  const response = full?.status === "ready" ? jsonValues(responseText) : null;
  const tools = c.method === "tools/list" && full?.status === "ready" ? toolRows(responseText) : null;
  return (
    <div class={s.tab} data-testid="mcp-view">
      <McpFacts c={c} />
      <McpPayloads c={c} />
      {tools ? (
        <section>
          <h3 class={s.heading}>
            {tools.length} tool{tools.length === 1 ? "" : "s"} declared — the host will put each one, word for word,
            into the prompt
          </h3>
          <ToolsTable rows={tools} />
        </section>
      ) : null}
      {full?.status === "ready" ? <McpSseEvents exchange={full.value} /> : null}
      <details class={s.raw} open={!tools}>
        <summary class={s.heading}>JSON-RPC answer</summary>
        <JsonRpcAnswer response={response} />
      </details>
    </div>
  );
}

/** Method, tool, id and the outcome with what it means. */
function McpFacts({ c }: { c: McpClassification }) {
  const o = OUTCOME[c.outcome] ?? { label: c.outcome, text: "" };
  return (
    <dl class={s.facts}>
      <dt>method</dt>
      <dd>
        <code>{c.method ?? "(unknown)"}</code>
      </dd>
      {c.toolName ? (
        <>
          <dt>tool</dt>
          <dd>
            <code>{c.toolName}</code>
          </dd>
        </>
      ) : null}
      {c.jsonrpcId !== undefined && c.jsonrpcId !== null ? (
        <>
          <dt>id</dt>
          <dd>
            <code>{String(c.jsonrpcId)}</code>
          </dd>
        </>
      ) : null}
      <dt>outcome</dt>
      <dd>
        <span class={s.outcome} data-outcome={c.outcome}>
          {o.label}
        </span>{" "}
        <span class={s.explain}>{o.text}</span>
      </dd>
    </dl>
  );
}

/** The call's arguments, its error, and the result text the host pastes back, each when there is one. */
function McpPayloads({ c }: { c: McpClassification }) {
  return (
    <>
      {c.arguments ? (
        <section>
          <h3 class={s.heading}>Arguments (chosen by the model, sent by the host)</h3>
          <pre class={s.json}>
            <Highlighted text={JSON.stringify(c.arguments, null, 2)} />
          </pre>
        </section>
      ) : null}
      {c.errorMessage || c.errorCode !== undefined ? (
        <section>
          <h3 class={s.heading}>Error</h3>
          <pre class={`${s.json} ${s.err}`}>
            {c.errorCode !== undefined ? `${c.errorCode} ` : ""}
            {c.errorMessage ?? ""}
          </pre>
        </section>
      ) : null}
      {c.resultText ? (
        <section>
          <h3 class={s.heading}>Result text (what the host will paste back to the model)</h3>
          <pre class={s.json}>
            <Highlighted text={c.resultText} />
          </pre>
        </section>
      ) : null}
    </>
  );
}

/** The JSON-RPC messages in the response body (`null` while the body is loading). */
function JsonRpcAnswer({ response }: { response: unknown[] | null }) {
  if (response === null) return <p class={s.note}>Loading…</p>;
  if (response.length === 0) return <p class={s.note}>No JSON-RPC message in the response body.</p>;
  return (
    <pre class={s.json}>
      <Highlighted text={response.map((v) => JSON.stringify(v, null, 2)).join("\n")} />
    </pre>
  );
}
