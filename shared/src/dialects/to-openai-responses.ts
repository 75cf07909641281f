/**
 * The native chat response → `/v1/responses` (openai.ToResponse, ResponsesStreamConverter, Ollama ≥ 0.13.3):
 * one `function_call` item per tool call (arguments as a JSON string, `call_id` the native call id) or else one
 * `message` item with an `output_text` part. The stream's event payloads are Go maps, so their keys are sorted;
 * each carries a `sequence_number`. Text streams as output_text deltas; after a tool call, text is not sent.
 */
import { type NativeChunk, argumentsText, sseEvent, unixSeconds } from "./native-response";
import { type Json, isObject } from "./go-decode";
import { toolCallId } from "../toolcall/tool-call-id";

export interface ResponsesIds {
  responseId: string;
  itemId: string;
  /** fc item ids in streams: `fc_<random>_<i>`. */
  random: () => number;
}

function usage(r: NativeChunk): Json {
  return {
    input_tokens: r.promptEvalCount,
    output_tokens: r.evalCount,
    total_tokens: r.promptEvalCount + r.evalCount,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}

const num = (v: unknown, d: number) => (typeof v === "number" ? v : d);
const textPart = (text: string) => ({ type: "output_text", text, annotations: [], logprobs: [] });

function reasoningOf(req: Json): Json | null {
  const r = isObject(req.reasoning) ? req.reasoning : {};
  if (!r.effort && !r.summary) return null;
  return { effort: r.effort || null, summary: r.summary || null };
}

/** The `response` object (openai.ResponsesResponse field order). */
function responseObject(
  req: Json,
  id: string,
  createdAt: number,
  status: string,
  output: unknown[],
  u: Json | null,
): Json {
  return {
    id,
    object: "response",
    created_at: createdAt,
    completed_at: null,
    status,
    incomplete_details: null,
    model: typeof req.model === "string" ? req.model : "",
    previous_response_id: null,
    instructions: typeof req.instructions === "string" && req.instructions !== "" ? req.instructions : null,
    output,
    error: null,
    tools: Array.isArray(req.tools) ? req.tools : [],
    tool_choice: "auto",
    truncation: typeof req.truncation === "string" ? req.truncation : "disabled",
    parallel_tool_calls: true,
    text: { format: isObject(req.text) && isObject(req.text.format) ? req.text.format : { type: "text" } },
    top_p: num(req.top_p, 1.0),
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: 0,
    temperature: num(req.temperature, 1.0),
    reasoning: reasoningOf(req),
    usage: u,
    max_output_tokens: typeof req.max_output_tokens === "number" ? req.max_output_tokens : null,
    max_tool_calls: null,
    store: false,
    background: req.background === true,
    service_tier: "default",
    metadata: {},
    safety_identifier: null,
    prompt_cache_key: null,
  };
}

export function toResponse(req: Json, ids: ResponsesIds, r: NativeChunk, completedAt: number): Json {
  const output: Json[] = [];
  if (r.thinking)
    output.push({
      id: `rs_${ids.responseId}`,
      type: "reasoning",
      summary: [{ type: "summary_text", text: r.thinking }],
      encrypted_content: r.thinking,
    });
  if (r.toolCalls.length > 0) {
    r.toolCalls.forEach((tc, i) =>
      output.push({
        id: `fc_${ids.responseId}_${i}`,
        type: "function_call",
        status: "completed",
        call_id: tc.id ?? toolCallId(ids.random),
        name: tc.name,
        arguments: argumentsText(tc.arguments),
      }),
    );
  } else
    output.push({
      id: ids.itemId,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [textPart(r.content)],
    });
  return {
    ...responseObject(req, ids.responseId, unixSeconds(r.createdAt), "completed", output, usage(r)),
    completed_at: completedAt,
  };
}

/** Go's map marshalling: keys sorted, recursively (struct-typed values are already plain objects here). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted(v[k])]),
  );
}

export class ResponsesStream {
  private first = true;
  private seq = 0;
  private outputIndex = 0;
  private contentStarted = false;
  private toolCallsSent = false;
  private text = "";
  private readonly done: Json[] = [];

  constructor(
    private readonly req: Json,
    private readonly ids: ResponsesIds,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private ev(type: string, data: Json): string {
    return sseEvent(sorted({ ...data, type, sequence_number: this.seq++ }), type);
  }

  private obj(status: string, output: unknown[], u: Json | null): Json {
    return responseObject(this.req, this.ids.responseId, Math.floor(this.now() / 1000), status, output, u);
  }

  write(r: NativeChunk): string {
    let out = "";
    if (this.first) {
      this.first = false;
      out += this.ev("response.created", { response: this.obj("in_progress", [], null) });
      out += this.ev("response.in_progress", { response: this.obj("in_progress", [], null) });
    }
    if (r.toolCalls.length > 0) {
      r.toolCalls.forEach((tc, i) => {
        const index = this.outputIndex + i;
        const itemId = `fc_${Math.floor(this.ids.random() * 999999)}_${i}`;
        const args = argumentsText(tc.arguments);
        const item = {
          id: itemId,
          type: "function_call",
          status: "completed",
          call_id: tc.id ?? toolCallId(this.ids.random),
          name: tc.name,
          arguments: args,
        };
        this.done.push(item);
        out += this.ev("response.output_item.added", {
          output_index: index,
          item: { ...item, status: "in_progress", arguments: "" },
        });
        out += this.ev("response.function_call_arguments.delta", { item_id: itemId, output_index: index, delta: args });
        out += this.ev("response.function_call_arguments.done", {
          item_id: itemId,
          output_index: index,
          arguments: args,
        });
        out += this.ev("response.output_item.done", { output_index: index, item });
      });
      this.outputIndex += r.toolCalls.length;
      this.toolCallsSent = true;
    }
    if (r.toolCalls.length === 0 && !this.toolCallsSent && r.content !== "") {
      const base = { item_id: this.ids.itemId, output_index: this.outputIndex, content_index: 0 };
      if (!this.contentStarted) {
        this.contentStarted = true;
        out += this.ev("response.output_item.added", {
          output_index: this.outputIndex,
          item: { id: this.ids.itemId, type: "message", status: "in_progress", role: "assistant", content: [] },
        });
        out += this.ev("response.content_part.added", { ...base, part: textPart("") });
      }
      this.text += r.content;
      out += this.ev("response.output_text.delta", { ...base, delta: r.content, logprobs: [] });
    }
    if (r.done) out += this.finish(r);
    return out;
  }

  private finish(r: NativeChunk): string {
    let out = "";
    const message = {
      id: this.ids.itemId,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [textPart(this.text)],
    };
    if (!this.toolCallsSent && this.contentStarted) {
      const base = { item_id: this.ids.itemId, output_index: this.outputIndex, content_index: 0 };
      out += this.ev("response.output_text.done", { ...base, text: this.text, logprobs: [] });
      out += this.ev("response.content_part.done", { ...base, part: textPart(this.text) });
      out += this.ev("response.output_item.done", { output_index: this.outputIndex, item: message });
    }
    const output = [...this.done, ...(this.contentStarted ? [message] : [])];
    const response = { ...this.obj("completed", output, usage(r)), completed_at: Math.floor(this.now() / 1000) };
    out += this.ev("response.completed", { response });
    return out;
  }
}
