/**
 * The host's side of the OpenAI- and Anthropic-compatible endpoints (AGENT_DIALECT=openai|anthropic): the loop's
 * native history is written in the dialect by the shared layer (tool arguments as a JSON string, or tool_use /
 * tool_result blocks), sent to `/v1/chat/completions` or `/v1/messages`, and the answer — JSON or SSE — is read
 * back into the same assistant message the native client returns, so the loop cannot tell the dialects apart.
 */
import type { AgentDialect } from "@hopscope/shared/agent/schemas";
import { ENDPOINT_SINCE } from "@hopscope/shared/dialects/dialect";
import { errorMessageOf } from "@hopscope/shared/dialects/dialect-error";
import { anthropicBody, openAiChatBody } from "@hopscope/shared/dialects/from-native";
import { readResponse } from "@hopscope/shared/dialects/read-response";
import { LESSON_HEADER, type OllamaMessage, type OllamaTool } from "@hopscope/shared/ollama/schemas";
import { modelNotPulled, modelServerFailed, modelUnreachable } from "./errors";
import type { AssistantMessage, ModelClient } from "./ollama-client";

export interface DialectClientOptions {
  dialect: Exclude<AgentDialect, "ollama">;
  url: string;
  model: string;
  stream: boolean;
  lesson: string | null;
  fetch?: typeof fetch;
}

export class DialectClient implements ModelClient {
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: DialectClientOptions) {
    this.fetchFn = opts.fetch ?? fetch;
  }

  private get path(): string {
    return this.opts.dialect === "openai" ? "/v1/chat/completions" : "/v1/messages";
  }

  async chat(messages: OllamaMessage[], tools: OllamaTool[], traceparent: string): Promise<AssistantMessage> {
    const { url, model, stream, lesson, dialect } = this.opts;
    const native = { model, messages, tools };
    const body = dialect === "openai" ? openAiChatBody(native, { stream }) : anthropicBody(native, { stream });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
      traceparent,
    };
    if (dialect === "anthropic") headers["anthropic-version"] = "2023-06-01";
    if (lesson !== null) headers[LESSON_HEADER] = lesson;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(`${url}${this.path}`, { method: "POST", headers, body: JSON.stringify(body) });
    } catch (err) {
      throw modelUnreachable(url, err);
    }
    try {
      text = await res.text();
    } catch (err) {
      throw modelServerFailed(url, `the ${this.path} answer broke off while it was being read`, err);
    }
    if (!res.ok) throw this.failure(res.status, text);
    const read = readResponse(dialect === "openai" ? "openai-chat" : "anthropic", text);
    if (!read.sawContent && read.toolCalls.length === 0 && read.doneReason === undefined) {
      throw modelServerFailed(
        url,
        `${this.path} returned a body that is not a ${dialect === "openai" ? "chat completion" : "message"}: ${text.slice(0, 200)}`,
      );
    }
    const calls = read.toolCalls.map((c) => ({
      ...(c.id ? { id: c.id } : {}),
      function: { name: c.name, arguments: c.arguments },
    }));
    return calls.length > 0
      ? { role: "assistant", content: read.content, tool_calls: calls }
      : { role: "assistant", content: read.content };
  }

  private failure(status: number, text: string): Error {
    const { url, model } = this.opts;
    let said: string | null = null;
    try {
      said = errorMessageOf(JSON.parse(text));
    } catch {
      // Not JSON (a plain 404 page from an Ollama without this endpoint): reported as text below.
    }
    if (status === 404 && said && /not found/i.test(said)) return modelNotPulled(model, url, said);
    const hint =
      status === 404 && !said
        ? ` (does this Ollama serve ${this.path}? It needs Ollama ${ENDPOINT_SINCE[this.path] ?? "?"} or newer)`
        : "";
    return modelServerFailed(
      url,
      `${this.path} answered HTTP ${status}: ${said ?? (text.slice(0, 300) || "(empty body)")}${hint}`,
    );
  }
}
