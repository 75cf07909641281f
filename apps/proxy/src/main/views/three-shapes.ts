/**
 * The three-shapes view of one model turn (see @hopscope/shared/trace/shapes): for each of Ollama, OpenAI and
 * Anthropic, the recorded exchange of the same turn when there is one (same rendered prompt, in the most recent
 * traces), else the request and response written from this turn by the shared conversion layer.
 */
import { dialectWriter } from "@hopscope/shared/dialects/convert";
import type { Dialect } from "@hopscope/shared/dialects/dialect";
import { anthropicBody, openAiChatBody } from "@hopscope/shared/dialects/from-native";
import { readResponse } from "@hopscope/shared/dialects/read-response";
import { renderDialect } from "@hopscope/shared/dialects/render-dialect";
import { isRecord } from "@hopscope/shared/trace/json-text";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { Shape, ThreeShapes } from "@hopscope/shared/trace/shapes";
import type { RecordingLink } from "../../link/calls";
import { renderExchange, viewDialect } from "./dialect-request";
import { tryParseJson } from "@hopscope/shared/json/parse";
import { goJson } from "@hopscope/shared/json/go-json";

const SHAPES = [
  { dialect: "ollama", d: "ollama", label: "Ollama", path: "/api/chat" },
  { dialect: "openai", d: "openai-chat", label: "OpenAI", path: "/v1/chat/completions" },
  { dialect: "anthropic", d: "anthropic", label: "Anthropic", path: "/v1/messages" },
] as const;

/** How many recent traces are searched for the same turn in another dialect. */
const SEARCH_TRACES = 50;

const pretty = (text: string): string => {
  const v = tryParseJson(text);
  return v === undefined ? text : JSON.stringify(v, null, 2);
};

/** The tool call as the dialect's response carries it, as one line of its JSON. */
function toolCallShape(dialect: Shape["dialect"], responseText: string | null): string | null {
  if (responseText === null) return null;
  const d: Dialect = dialect === "openai" ? "openai-chat" : dialect;
  const call = readResponse(d, responseText).toolCalls[0];
  if (!call) return null;
  if (dialect === "openai")
    return `"function": {"name": ${JSON.stringify(call.name)}, "arguments": ${JSON.stringify(call.argumentsText ?? JSON.stringify(call.arguments))}}`;
  if (dialect === "anthropic")
    return `{"type": "tool_use", "id": ${JSON.stringify(call.id ?? "")}, "name": ${JSON.stringify(call.name)}, "input": ${JSON.stringify(call.arguments)}}`;
  return `"function": {"name": ${JSON.stringify(call.name)}, "arguments": ${JSON.stringify(call.arguments)}}`;
}

export class ThreeShapesBuilder {
  constructor(private readonly link: RecordingLink) {}

  async build(ex: Exchange, ollamaVersion: string | null): Promise<ThreeShapes | null> {
    const d = viewDialect(ex);
    if (!d || ex.classification.kind !== "model.chat") return null;
    const opts = ollamaVersion ? { ollamaVersion } : {};
    const mine = renderExchange(ex, d, opts);
    if (mine.kind !== "rendered") return null;
    const prompt = mine.render.text;
    const native = mine.render.converted.native;
    const recorded = await this.recordedTwins(ex, prompt, opts);
    const notes: string[] = [];
    const shapes = SHAPES.map((s): Shape => {
      const twin = s.d === d ? ex : recorded.get(s.d);
      if (twin) {
        const responseText = twin.responseBody?.encoding === "utf8" ? twin.responseBody.data : null;
        return {
          dialect: s.dialect,
          label: s.label,
          path: s.path,
          source: "recorded",
          exchangeId: twin.id,
          request: pretty(twin.requestBody?.data ?? ""),
          response: responseText === null ? null : pretty(responseText),
          toolCallShape: toolCallShape(s.dialect, responseText),
          samePrompt: true,
        };
      }
      const request =
        s.dialect === "ollama"
          ? { model: native.model, messages: native.messages, tools: native.tools, stream: false }
          : s.dialect === "openai"
            ? openAiChatBody(native)
            : anthropicBody(native);
      const response = this.convertedResponse(ex, d, s.d, request);
      let samePrompt = false;
      try {
        samePrompt = renderDialect(s.d, request, opts).text === prompt;
      } catch (err) {
        notes.push(`${s.label}: the converted request does not render (${(err as Error).message})`);
      }
      return {
        dialect: s.dialect,
        label: s.label,
        path: s.path,
        source: "converted",
        request: JSON.stringify(request, null, 2),
        response,
        toolCallShape: toolCallShape(s.dialect, response),
        samePrompt,
      };
    });
    if (shapes.some((s) => s.source === "converted")) {
      notes.push(
        "A shape marked \"converted\" was not recorded: hopscope wrote it from this turn with Ollama's conversion rules. Ask the same question in that dialect (the ask box's dialect choice) to see its real bytes.",
      );
    }
    return { exchangeId: ex.id, prompt, ollamaVersion: mine.render.ollamaVersion, shapes, notes };
  }

  /** The most recent recorded turn in each other dialect whose rendered prompt is exactly this one. */
  private async recordedTwins(
    ex: Exchange,
    prompt: string,
    opts: { ollamaVersion?: string },
  ): Promise<Map<Dialect, Exchange>> {
    const found = new Map<Dialect, Exchange>();
    for (const t of (await this.link.call("listTraces", SEARCH_TRACES, null)).traces) {
      for (const other of await this.link.call("exchanges", t.id)) {
        const d = viewDialect(other);
        if (
          !d ||
          other.id === ex.id ||
          found.has(d) ||
          other.status !== 200 ||
          other.classification.kind !== "model.chat"
        )
          continue;
        if (d === viewDialect(ex)) continue;
        const r = renderExchange(other, d, opts);
        if (r.kind === "rendered" && r.render.text === prompt) found.set(d, other);
      }
    }
    return found;
  }

  /** This turn's answer written in another dialect (as Ollama's writer would for the same native answer). */
  private convertedResponse(ex: Exchange, from: Dialect, to: Dialect, request: Record<string, unknown>): string | null {
    const text = ex.responseBody?.encoding === "utf8" && ex.status === 200 ? ex.responseBody.data : null;
    if (text === null) return null;
    const r = readResponse(from, text);
    const createdAt = new Date(ex.timings.start).toISOString();
    const model = isRecord(request) && typeof request.model === "string" ? request.model : "";
    const nativeAnswer = {
      model,
      created_at: createdAt,
      message: {
        role: "assistant",
        content: r.content,
        ...(r.toolCalls.length > 0
          ? {
              tool_calls: r.toolCalls.map((c, i) => ({
                ...(c.id ? { id: c.id } : {}),
                function: { index: i, name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      },
      done: true,
      done_reason: "stop",
      prompt_eval_count: r.promptTokens ?? 0,
      eval_count: r.outputTokens ?? 0,
    };
    if (to === "ollama") return JSON.stringify(nativeAnswer, null, 2);
    const body = dialectWriter(to as "openai-chat" | "anthropic", request).whole(nativeAnswer);
    return JSON.stringify(JSON.parse(goJson(body)), null, 2);
  }
}
