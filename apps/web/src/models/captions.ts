/**
 * Plain-language captions, one per kind of hop, written for learners who have not read the article.
 * They carry its lessons: the model never touches the file; the host decides and acts; memory is a
 * list the host resends; tool calling is just text.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import type { RequestRole } from "@hopscope/shared/trace/run-lines";
import type { Hop } from "./hops";
import { isNoStreamAnswer, NO_STREAM_NOTE } from "./outcome";
import { isStdioExchange } from "@hopscope/shared/trace/stdio-ingest";
import type { Durations, StreamState } from "./stream-state";

export interface Caption {
  title: string;
  text: string;
  /** Numbers of the moment: seconds waited, tokens so far and tokens/s, or the model server's timings. */
  meter?: string;
  /** Which state the caption describes (`waiting`, `text`, `tool-call`, `done`, `cut`), for styling and tests. */
  state?: StreamState["kind"];
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (tps: number | null) => (tps === null ? "" : ` · ${tps.toFixed(1)} tokens/s`);
const tokensSoFar = (n: number) => `${n} token${n === 1 ? "" : "s"} so far`;

/** Ollama's own timings from the final chunk: loading the model, reading the prompt, writing the answer. */
export function durationsMeter(d: Durations | null): string | undefined {
  if (!d) return undefined;
  const parts: string[] = [];
  if (d.loadMs !== undefined) parts.push(`loading the model ${secs(d.loadMs)}`);
  if (d.promptMs !== undefined)
    parts.push(
      `reading the prompt${d.promptTokens !== undefined ? ` (${d.promptTokens} tokens)` : ""} ${secs(d.promptMs)}`,
    );
  if (d.evalMs !== undefined) {
    const tps =
      d.evalTokens !== undefined && d.evalMs > 0 ? ` = ${((d.evalTokens * 1000) / d.evalMs).toFixed(1)} tokens/s` : "";
    parts.push(`writing${d.evalTokens !== undefined ? ` ${d.evalTokens} tokens` : ""} ${secs(d.evalMs)}${tps}`);
  }
  return parts.length ? `Model server: ${parts.join(" · ")}` : undefined;
}

/** Nothing back yet from the model server: say what it is doing, and for how long. */
function waitingCaption(st: Extract<StreamState, { kind: "waiting" }>, base: Caption): Caption {
  return {
    title: `${base.title} — waiting for the model's first byte`,
    text: st.streamed
      ? `Nothing has come back yet: the model server is loading the model and reading the prompt (every token of it) before it writes the first token.${st.hasTools ? " If the model is writing a tool call, Ollama also holds the text back until the whole <tool_call> is written." : ""}`
      : "The host asked for the whole answer at once (stream: false), so nothing comes back until the model has finished: the model server loads the model, reads the prompt (every token of it), then writes the answer, token by token.",
    meter: `waiting ${secs(st.elapsedMs)}`,
    state: "waiting",
  };
}

/** A model's answer that is still arriving, or that was cut before its final chunk. */
function liveResponseCaption(st: StreamState): Caption | null {
  switch (st.kind) {
    case "arriving":
      return {
        title: "The model server's answer is arriving…",
        text: "The host asked for the whole answer at once (stream: false): it arrives in one piece, and only then does the host see whether the model asked for a tool.",
        state: "arriving",
      };
    case "text":
      return {
        title: "The model is writing words…",
        text: "Each chunk is about one token, sent the moment the model generates it. The model writes text, one token after another; nothing is decided until it stops.",
        meter: `${tokensSoFar(st.tokens)}${rate(st.tokensPerSecond)}`,
        state: "text",
      };
    case "tool-call":
      return {
        title: `The model is writing a tool call${st.toolName ? `: ${st.toolName}` : ""}…`,
        text: "It writes <tool_call> tags around a JSON function call — plain text. The model server's parser (Ollama's state machine) turns that text into tool_calls JSON. The model cannot run anything: it only asks the host.",
        meter: `${tokensSoFar(st.tokens)}${rate(st.tokensPerSecond)}`,
        state: "tool-call",
      };
    case "cut":
      return {
        title: st.inToolCall
          ? "The stream was cut in the middle of a tool call"
          : "The stream was cut before the model finished",
        text: `The connection ended before the model server's final chunk (done: true), so this answer is incomplete.${st.inToolCall ? " A half-written tool call is not a tool call: the host cannot act on it." : ""}`,
        meter: tokensSoFar(st.tokens).replace(" so far", " arrived"),
        state: "cut",
      };
    default:
      return null;
  }
}

function modelRequestCaption(x: ExchangeSummary, isFirstModelRequest: boolean, role?: RequestRole): Caption {
  const c = x.classification;
  const n = c.kind === "model.chat" ? c.messageCount : undefined;
  const t = c.kind === "model.chat" ? c.toolCount : undefined;
  if (role?.role === "retry") {
    return {
      title: "The host sends the same request again",
      text: `A retry of hop ${role.ofHop}: the same messages again, because the answer before did not come back whole (or at all). The model remembers nothing of the attempt before: each try starts from the text alone.`,
    };
  }
  if (role?.role === "side") {
    return {
      title: `A side request: ${role.purpose}`,
      text: `Not a turn of the conversation: the agent asks the model for ${role.purpose} on the side, with its own instructions${t ? "" : " and no tools"}. The main line goes on without it.`,
    };
  }
  if (isFirstModelRequest) {
    return {
      title: "The host asks the model",
      text: `The host sends the conversation${n !== undefined ? ` (${n} message${n === 1 ? "" : "s"})` : ""}${t ? ` and ${t} tool descriptions` : ""} as JSON. The model server turns it all into one long text — the prompt — and the model only ever sees that text. Tools are just text in the prompt.`,
    };
  }
  return {
    title: "The host asks again, resending everything",
    text: "The model remembers nothing between calls. Its \"memory\" is a list the host keeps and resends in full: the question, the model's tool call and the tool's result. See the diff: only the end is new.",
  };
}

function modelResponseCaption(x: ExchangeSummary): Caption {
  const c = x.classification;
  const refusal = c.kind === "model.chat" || c.kind === "model.other" ? c.refusal : undefined;
  if (x.status !== null && x.status >= 400 && x.status < 500) {
    return {
      title: `The model server refused the request (${x.status})`,
      text: `It answered: “${refusal ?? "no message"}”. The request never reached the model: nothing was generated, nothing was cut. The host decides what to do next — retry, or give up and tell you.`,
    };
  }
  if (x.state === "error" || (x.status !== null && x.status >= 400)) {
    return {
      title: "The model server failed",
      text: "The model server answered with an error. The host decides what to do next — retry, or give up and tell you.",
    };
  }
  if (c.kind === "model.chat" && c.toolCalls.length > 0) {
    const names = c.toolCalls.map((t) => t.name).join(", ");
    return {
      title: `The model asks for a tool: ${names}`,
      text: "The model wrote text that looks like a function call, between <tool_call> tags. The model server parsed that text into tool_calls JSON. The model cannot run anything: it only asks. It has no idea an MCP server exists.",
    };
  }
  return {
    title: "The model answers in words",
    text: "No tool call this time, so the host's loop stops here. The model returned plain text; the host will pass it back to you.",
  };
}

function mcpCaption(x: ExchangeSummary): Caption {
  const c = x.classification;
  if (isNoStreamAnswer(x))
    return { title: "The client offers to listen; the server has no stream", text: NO_STREAM_NOTE };
  const stdio = isStdioExchange(x);
  if (c.kind !== "mcp")
    return stdio
      ? stdioLineCaption(x)
      : {
          title: "The host talks to the MCP server",
          text: "One JSON-RPC message on the MCP server's single endpoint.",
        };
  if (c.outcome === "not-offered") {
    return {
      title: `Not offered by this server: ${c.method ?? "a method"}`,
      text: "The host asks every MCP server what it offers beyond tools (prompts, resources). This one has none, and says so with JSON-RPC's -32601 “method not found”. Nothing went wrong: the host simply goes on without them.",
    };
  }
  if (c.method === "tools/list") {
    return {
      title: "The host asks the MCP server which tools it has",
      text: "MCP is JSON-RPC on one endpoint. tools/list returns each tool with a plain-English description and a JSON Schema — written for the model, not for a developer.",
    };
  }
  if (c.method === "tools/call") {
    const tool = c.toolName ?? "a tool";
    if (c.outcome === "protocol-error") {
      return {
        title: `Protocol error calling ${tool}`,
        text: "A JSON-RPC error: the request itself was wrong (unknown tool, bad JSON, wrong headers). That is a bug for the developer of the host, not something the model can fix.",
      };
    }
    if (c.outcome === "tool-error") {
      return {
        title: `Tool error from ${tool}`,
        text: "The tool ran and reported a problem (isError: true) as a normal result. The host pastes it back to the model, which can fix its call and retry.",
      };
    }
    return {
      title: `The host runs the tool: ${tool}`,
      text: "The host decided to act on the model's request and calls the MCP server itself. This is the only moment anything touches the notes file — the model never does. The host is the real control point.",
    };
  }
  return {
    title: `MCP: ${c.method ?? "message"}`,
    text: stdio
      ? "One JSON-RPC message on a stdio server's pipes: a line on its stdin, answered by a line on its stdout."
      : "One JSON-RPC message on the MCP server's single endpoint, POST /mcp.",
  };
}

/** A stdio server's line that is no JSON-RPC message: its stderr, or its end. */
function stdioLineCaption(x: ExchangeSummary): Caption {
  if (x.url === "exit")
    return {
      title: x.state === "error" ? "The stdio server failed" : "The stdio server ended",
      text:
        x.state === "error"
          ? `The server process ended on its own: ${x.error ?? "it failed"}.`
          : "The host ended the server after its session (or the server exited cleanly): a normal end.",
    };
  return {
    title: "The stdio server writes to its stderr",
    text: "A line of the server's log on stderr. MCP messages travel on stdin and stdout only; stderr is for people.",
  };
}

/**
 * The caption for a hop; `firstModelRequestId` tells the first model request from the resends, `role` a retry or
 * a side request (shared/src/trace/run-lines.ts) from the main line; `stream`
 * is what is known of a model exchange at the moment on screen (see ./stream-state.ts), so a caption
 * never tells more — or other — than has happened.
 */
export function captionFor(
  hop: Hop,
  exchange: ExchangeSummary | undefined,
  firstModelRequestId: number | undefined,
  stream?: StreamState,
  role?: RequestRole,
): Caption {
  if (!exchange) return { title: `Hop ${hop.number}`, text: "" };
  if (hop.kind === "model-request" && stream?.kind === "waiting")
    return waitingCaption(stream, modelRequestCaption(exchange, exchange.id === firstModelRequestId, role));
  if (hop.kind === "model-response" && stream) {
    const live = liveResponseCaption(stream);
    if (live) return live;
    if (stream.kind === "done") {
      const meter = durationsMeter(stream.durations);
      return { ...modelResponseCaption(exchange), ...(meter ? { meter } : {}), state: "done" };
    }
  }
  switch (hop.kind) {
    case "agent-request":
      return {
        title: "You ask the host",
        text: "Your question goes to the host — the program that runs the agent loop. The host, not the model, makes every network call from here on.",
      };
    case "agent-response":
      return {
        title: "The host answers you",
        text: "The host returns the model's final words and the list of tool calls it made. Count the hops: the model was in only some of them, receiving text and returning text.",
      };
    case "model-request":
      return modelRequestCaption(exchange, exchange.id === firstModelRequestId, role);
    case "model-response":
      return modelResponseCaption(exchange);
    case "mcp":
      return mcpCaption(exchange);
  }
}

/** A short label for an arrow in the sequence view. */
export function arrowLabel(hop: Hop, exchange: ExchangeSummary | undefined, direction: "request" | "response"): string {
  if (!exchange) return "";
  return direction === "request" ? requestArrowLabel(exchange) : responseArrowLabel(exchange);
}

/** What was asked: the question, the MCP method and tool, the chat's size, or the request line. */
function requestArrowLabel(exchange: ExchangeSummary): string {
  const c = exchange.classification;
  if (c.kind === "agent") return c.message ? `“${c.message}”` : `${exchange.method} ${exchange.url}`;
  if (c.kind === "mcp") return [c.method, c.toolName].filter(Boolean).join(" ") || `${exchange.method} ${exchange.url}`;
  if (c.kind === "model.chat")
    return `${exchange.method} ${exchange.url} · ${c.messageCount} msg${c.toolCount ? ` · ${c.toolCount} tools` : ""}`;
  // A stdio server's own line: named by its pipe (stderr) or its end, not as an HTTP request line.
  if (isStdioExchange(exchange)) return exchange.url === "exit" ? "the server ends" : exchange.url;
  return `${exchange.method} ${exchange.url}`;
}

/** What came back: the reply, the tool calls or text the model wrote, the MCP result or error, else the status. */
function responseArrowLabel(exchange: ExchangeSummary): string {
  const c = exchange.classification;
  const status = exchange.status === null ? "" : String(exchange.status);
  if (isNoStreamAnswer(exchange)) return `${status} · no stream`;
  if (exchange.error) return `${status} ${exchange.error}`.trim();
  if (c.kind === "agent") return c.reply ? `“${c.reply}”` : status;
  if (c.kind === "model.chat") {
    if (c.toolCalls.length) return c.toolCalls.map((t) => `${t.name}(${JSON.stringify(t.arguments)})`).join(", ");
    return c.content ? `“${c.content}”` : status;
  }
  if (c.kind === "mcp") return mcpResultLabel(c, status);
  return status;
}

/** An MCP answer: which kind of error it was, else its result text. */
function mcpResultLabel(c: Extract<ExchangeSummary["classification"], { kind: "mcp" }>, status: string): string {
  if (c.outcome === "not-offered") return "not offered (-32601)";
  if (c.outcome === "protocol-error") return `JSON-RPC error ${c.errorCode ?? ""} ${c.errorMessage ?? ""}`.trim();
  if (c.outcome === "tool-error") return `isError: ${c.resultText ?? c.errorMessage ?? "tool error"}`;
  if (c.resultText) return c.resultText;
  return c.method === "tools/list" ? "tools" : status;
}
