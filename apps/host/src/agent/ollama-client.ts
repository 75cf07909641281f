/**
 * The host's side of Ollama's native `/api/chat` (a real Ollama, or apps/model-sim which speaks the
 * same API). One call = one step of the agent loop: send the whole history and the tools, get back one
 * assistant message. With `stream: true` the NDJSON chunks are aggregated into that same message, so the
 * loop cannot tell the two apart. Shapes: @hopscope/shared/ollama/schemas.
 */
import { parseJson } from "@hopscope/shared/json/parse";
import {
  ChatResponseSchema,
  LESSON_HEADER,
  OllamaErrorSchema,
  type ChatResponse,
  type OllamaMessage,
  type OllamaTool,
  type OllamaToolCall,
} from "@hopscope/shared/ollama/schemas";
import { HostError, modelNotPulled, modelServerFailed, modelUnreachable } from "./errors";
import { ndjsonStream } from "@hopscope/shared/framing/ndjson";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

export interface OllamaClientOptions {
  url: string;
  model: string;
  keepAlive: string | number;
  stream: boolean;
  /** Workshop lesson for the stand-in model; a real Ollama ignores the header. */
  lesson: string | null;
  fetch?: typeof fetch;
}

/** The assistant message the loop keeps in history (tool_calls included, or the tool results make no sense). */
export type AssistantMessage = {
  role: "assistant";
  content: string;
  tool_calls?: OllamaToolCall[];
};

/** One step of the agent loop against the model server, in whichever dialect the client speaks. */
export interface ModelClient {
  chat(messages: OllamaMessage[], tools: OllamaTool[], traceparent: string): Promise<AssistantMessage>;
}

export class OllamaClient implements ModelClient {
  private readonly fetchFn: typeof fetch;

  constructor(private readonly opts: OllamaClientOptions) {
    this.fetchFn = opts.fetch ?? fetch;
  }

  async chat(messages: OllamaMessage[], tools: OllamaTool[], traceparent: string): Promise<AssistantMessage> {
    const { url, model, keepAlive, stream, lesson } = this.opts;
    const endpoint = `${url}/api/chat`;
    // Field order as in the article's Part 4, moment 3, so a recorded request reads the same.
    const body = { model, messages, tools, stream, keep_alive: keepAlive };
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "application/x-ndjson" : "application/json",
      traceparent,
    };
    if (lesson !== null) headers[LESSON_HEADER] = lesson;

    let res: Response;
    try {
      res = await this.fetchFn(endpoint, { method: "POST", headers, body: JSON.stringify(body) });
    } catch (err) {
      throw modelUnreachable(url, err);
    }
    if (!res.ok) throw await this.failure(res);
    if (!stream) {
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        throw modelServerFailed(url, "the /api/chat answer broke off while it was being read", err);
      }
      return toAssistant(this.parseChunk(parseJsonReply(text, url), url));
    }
    if (!res.body) throw modelServerFailed(url, "the streamed /api/chat answer had no body");
    return this.aggregate(res.body);
  }

  /** Fold NDJSON chunks into one message: content concatenated, tool calls in arrival order. */
  private async aggregate(body: ReadableStream<Uint8Array>): Promise<AssistantMessage> {
    const { url } = this.opts;
    let content = "";
    const toolCalls: OllamaToolCall[] = [];
    let sawDone = false;
    try {
      for await (const line of ndjsonStream(body, { onBadLine: "throw" })) {
        const chunk = this.parseChunk(line, url);
        content += chunk.message.content;
        toolCalls.push(...(chunk.message.tool_calls ?? []));
        if (chunk.done) {
          sawDone = true;
          break;
        }
      }
    } catch (err) {
      if (err instanceof HostError) throw err;
      throw modelServerFailed(url, `the /api/chat stream broke: ${(err as Error).message}`, err);
    }
    if (!sawDone) throw modelServerFailed(url, "the /api/chat stream ended before a chunk with done: true");
    return toAssistant({ message: { content, tool_calls: toolCalls } });
  }

  private parseChunk(value: unknown, url: string): ChatResponse {
    const error = OllamaErrorSchema.safeParse(value);
    if (error.success) throw modelServerFailed(url, error.data.error);
    const parsed = ChatResponseSchema.safeParse(value);
    if (!parsed.success) {
      const issues = formatZodIssues(parsed.error, { whole: "the chunk" });
      throw modelServerFailed(url, `/api/chat returned a body that is not an Ollama chat response (${issues})`);
    }
    return parsed.data;
  }

  private async failure(res: Response): Promise<Error> {
    const { url, model } = this.opts;
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      return modelServerFailed(url, `/api/chat answered HTTP ${res.status}, and the body broke off`, err);
    }
    const error = OllamaErrorSchema.safeParse(safeJson(text));
    const said = error.success ? error.data.error : text.slice(0, 300) || "(empty body)";
    // Ollama: 404 {"error":"model \"qwen2.5:7b\" not found, try pulling it first"}. A bare 404 page means
    // OLLAMA_URL points at something that is not Ollama.
    if (res.status === 404 && error.success && /not found/i.test(said)) return modelNotPulled(model, url, said);
    const hint = res.status === 404 ? " (is OLLAMA_URL an Ollama server?)" : "";
    return modelServerFailed(url, `/api/chat answered HTTP ${res.status}: ${said}${hint}`);
  }
}

function toAssistant(chunk: {
  message: { content: string; tool_calls?: OllamaToolCall[] | undefined };
}): AssistantMessage {
  const calls = chunk.message.tool_calls ?? [];
  return calls.length > 0
    ? { role: "assistant", content: chunk.message.content, tool_calls: calls }
    : { role: "assistant", content: chunk.message.content };
}

function parseJsonReply(text: string, url: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    throw modelServerFailed(url, `/api/chat answered invalid JSON: ${text.slice(0, 200)}`, err);
  }
}

function safeJson(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    // Not JSON: the caller reports the raw text instead, so nothing is lost.
    return undefined;
  }
}
