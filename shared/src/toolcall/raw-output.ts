/**
 * The raw text qwen2.5 generated, rebuilt from what Ollama returned. Ollama runs the model's output through
 * its tool-call parser (./parser.ts) and discards the text, so the timeline can only show a reconstruction:
 * the prose before the first tag (`message.content`), then one block per call in the format Qwen was trained
 * on (its Hugging Face chat template, QwenLM function_call.md):
 *
 *     <tool_call>
 *     {"name": "append", "arguments": {"content": "buy milk"}}
 *     </tool_call>
 *
 * with Python `json.dumps` spacing (`", "`, `": "`, non-ASCII kept), blocks joined by "\n", and no
 * `<|im_end|>` (Ollama stops on it and never includes it). What cannot come back: text after the calls
 * (the parser drops it) and any deviation of the model from its training format. The stand-in model
 * (apps/model-sim) uses `writeRawToolCalls` to produce the text it then parses like Ollama.
 *
 * Round trip: `parseToolCalls(rawOutputFromMessage(m), tools)` gives back `m`'s calls and content.
 */

/** A tool call as found in a response or a request message (`OllamaToolCall` and `ParsedToolCall` fit). */
export interface RawToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

/** The parts of a response message the reconstruction uses. */
export interface RawOutputMessage {
  content?: string;
  tool_calls?: readonly RawToolCall[];
}

/** One response or NDJSON chunk of `/api/chat` (`ChatResponse` fits). */
export interface RawOutputChunk {
  message: RawOutputMessage;
}

/** Text for the UI wherever a raw output is shown. */
export const RAW_OUTPUT_NOTE =
  "Reconstructed, not recorded: Ollama parses the model's raw text into message.tool_calls and throws the " +
  "text away. This is what qwen2.5 generates in its training format, rebuilt from message.content and " +
  "message.tool_calls; anything the model wrote after its tool calls, and any deviation from that format, is lost.";

/** Python's float repr writes at least two exponent digits (1e-07) where JS writes one (1e-7). */
function pythonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`pythonJson: ${n} has no JSON form`);
  return String(n).replace(/e([+-])(\d)$/, (_m, sign: string, digit: string) => `e${sign}0${digit}`);
}

/**
 * `json.dumps(value, ensure_ascii=False)` as the Hugging Face template's `tojson` writes it: separators
 * `", "` and `": "`, keys in the object's order, non-ASCII as is. JSON.stringify escapes strings exactly
 * as Python does here (`\"`, `\\`, `\n`-style short forms, other control characters as lowercase `\u00XX`).
 *
 * @example pythonJson({ content: "buy milk", tags: ["a", "b"] }) === '{"content": "buy milk", "tags": ["a", "b"]}'
 */
export function pythonJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return pythonNumber(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
      return `{${Object.entries(value)
        .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`)
        .join(", ")}}`;
    default:
      throw new Error(`pythonJson: a ${typeof value} is not a JSON value`);
  }
}

/**
 * The `<tool_call>` blocks qwen2.5 writes for these calls, joined by "\n". The name goes in unescaped, as
 * both the Hugging Face and the Ollama template insert it.
 */
export function writeRawToolCalls(calls: readonly RawToolCall[]): string {
  return calls
    .map(
      (call) =>
        `<tool_call>\n{"name": "${call.function.name}", "arguments": ${pythonJson(call.function.arguments)}}\n</tool_call>`,
    )
    .join("\n");
}

/**
 * The raw model output behind a non-streamed response message: its content (the text before the first
 * tag, exactly as Ollama returned it), then the tool-call blocks.
 *
 * @example rawOutputFromMessage({ content: "", tool_calls: [{ function: { name: "append", arguments: { content: "buy milk" } } }] })
 *   // '<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>'
 */
export function rawOutputFromMessage(msg: RawOutputMessage): string {
  return (msg.content ?? "") + writeRawToolCalls(msg.tool_calls ?? []);
}

/** The raw model output behind a streamed response: chunks aggregated as Ollama's non-streaming path does. */
export function rawOutputFromChunks(chunks: readonly RawOutputChunk[]): string {
  return rawOutputFromMessage({
    content: chunks.map((chunk) => chunk.message.content ?? "").join(""),
    tool_calls: chunks.flatMap((chunk) => chunk.message.tool_calls ?? []),
  });
}
