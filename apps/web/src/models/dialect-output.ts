/**
 * How the model server handed the parsed tool calls back, in the dialect the client spoke: Ollama's
 * `message.tool_calls` (arguments an object), OpenAI's `choices[0].message.tool_calls` (arguments a JSON string,
 * as Go marshals it), Responses' `function_call` items, Anthropic's `tool_use` content blocks (input an object).
 */
import { dialectOfPath } from "@hopscope/shared/dialects/dialect";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { goJson } from "@hopscope/shared/json/go-json";

type ToolCall = Extract<ExchangeSummary["classification"], { kind: "model.chat" }>["toolCalls"][number];

export interface ParsedShape {
  /** Where in the response they are, e.g. `choices[0].message.tool_calls`. */
  field: string;
  /** One sentence on the shape (what the article's Part 1.3 points out). */
  note: string;
  value: unknown;
  /** Where the text of the answer is, in this dialect. */
  contentField: string;
}

export function parsedShape(url: string, calls: readonly ToolCall[]): ParsedShape {
  const d = dialectOfPath(url.split("?")[0] ?? url);
  switch (d) {
    case "openai-chat":
      return {
        field: "choices[0].message.tool_calls",
        note: "OpenAI's shape: the arguments are a JSON string, which the client must parse.",
        value: calls.map((t, index) => ({
          id: t.id ?? "",
          index,
          type: "function",
          function: { name: t.name, arguments: goJson(t.arguments) },
        })),
        contentField: "choices[0].message.content",
      };
    case "openai-responses":
      return {
        field: "output[] function_call items",
        note: "OpenAI Responses: one function_call item per call, its arguments a JSON string.",
        value: calls.map((t) => ({
          type: "function_call",
          call_id: t.id ?? "",
          name: t.name,
          arguments: goJson(t.arguments),
        })),
        contentField: "output[] message → output_text",
      };
    case "anthropic":
      return {
        field: "content[] tool_use blocks",
        note: "Anthropic's shape: a tool_use content block per call, its input a JSON object.",
        value: calls.map((t) => ({ type: "tool_use", id: t.id ?? "", name: t.name, input: t.arguments })),
        contentField: "content[] text blocks",
      };
    default:
      return {
        field: "message.tool_calls",
        note: "Ollama's shape: the arguments are a JSON object.",
        // As on the wire: an Ollama that gives calls an id (0.12 and later) also writes `function.index`, the
        // call's position (its Go struct has no omitempty); an older one writes neither.
        value: calls.map((t, index) =>
          t.id
            ? { id: t.id, function: { index, name: t.name, arguments: t.arguments } }
            : { function: { name: t.name, arguments: t.arguments } },
        ),
        contentField: "message.content",
      };
  }
}
