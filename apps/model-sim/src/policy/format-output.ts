/**
 * Turning a decision into the text the model generates. Normally that is the shared raw-output writer's
 * `<tool_call>` blocks. With `format` (JSON mode or a schema) Ollama constrains sampling to JSON, so the
 * model cannot emit the `<tool_call>` tag: it writes the call (or its reply) as plain JSON, and Ollama's
 * parser, never seeing the tag, returns it as content — what a real qwen2.5 does under `format`.
 */
import { pythonJson } from "@hopscope/shared/toolcall/raw-output";
import { rawOutputFromMessage } from "@hopscope/shared/toolcall/raw-output";
import type { Decision } from "./decide";

/** A value conforming to a (simple) JSON Schema, carrying `text` in its first string slot. */
function conforming(schema: unknown, text: string): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      let used = false;
      return Object.fromEntries(
        Object.entries(props).map(([k, p]) => {
          const v = conforming(p, used ? "" : text);
          if (typeof v === "string" && v !== "") used = true;
          return [k, v];
        }),
      );
    }
    case "array":
      return [];
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return text;
  }
}

export function outputText(decision: Decision, format: unknown): string {
  if (format === undefined || format === null || format === "") {
    return rawOutputFromMessage({
      content: decision.content,
      tool_calls: decision.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
    });
  }
  const call = decision.toolCalls[0];
  if (call) return pythonJson({ name: call.name, arguments: call.arguments });
  if (format === "json" || typeof format === "string") return pythonJson({ reply: decision.content });
  return pythonJson(conforming(format, decision.content));
}
