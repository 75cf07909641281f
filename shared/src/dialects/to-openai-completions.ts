/**
 * The native generate response → `/v1/completions` (openai.ToCompletion / ToCompleteChunk, CompleteWriter):
 * every streamed chunk is a `text_completion` with the text so far's piece; with include_usage each carries an
 * empty usage and a last chunk without choices carries the counts; then `data: [DONE]`.
 */
import { type NativeChunk, sseEvent, unixSeconds } from "./native-response";
import type { Json } from "./go-decode";

function choice(r: NativeChunk): Json {
  return { text: r.response, index: 0, finish_reason: r.doneReason === "" ? null : r.doneReason };
}

function usage(r: NativeChunk): Json {
  return {
    prompt_tokens: r.promptEvalCount,
    completion_tokens: r.evalCount,
    total_tokens: r.promptEvalCount + r.evalCount,
  };
}

export function toCompletion(id: string, r: NativeChunk): Json {
  return {
    id,
    object: "text_completion",
    created: unixSeconds(r.createdAt),
    model: r.model,
    system_fingerprint: "fp_ollama",
    choices: [choice(r)],
    usage: usage(r),
  };
}

export class OpenAiCompletionsStream {
  constructor(
    private readonly id: string,
    private readonly includeUsage: boolean,
    private readonly now: () => number = () => Date.now(),
  ) {}

  write(r: NativeChunk): string {
    // ToCompleteChunk stamps the time of writing, not the response's.
    const c: Json = {
      id: this.id,
      object: "text_completion",
      created: Math.floor(this.now() / 1000),
      choices: [choice(r)],
      model: r.model,
      system_fingerprint: "fp_ollama",
    };
    if (this.includeUsage) c.usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    let out = sseEvent(c);
    if (r.done) {
      if (this.includeUsage) out += sseEvent({ ...c, choices: [], usage: usage(r) });
      out += sseEvent("[DONE]");
    }
    return out;
  }
}
