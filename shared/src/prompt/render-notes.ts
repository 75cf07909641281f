/**
 * The notes a render carries: what the Ollama version does differently, what a request's messages lose on the
 * way to the model, and what the rendered text holds that a reader might not expect.
 */
import type { MessageInput } from "./api-values";
import type { Prepared } from "./prepare";
import type { SegmentBuilder } from "./segments";
import type { OllamaFeatures } from "./version";

/** How the render's note that the prompt may not fit begins (a view with token counts says for sure instead). */
export const MAY_EXCEED_NOTE = "The prompt may exceed the context window";

export function versionNotes(f: OllamaFeatures, hasTools: boolean): string[] {
  const notes: string[] = [];
  if (f.version === "0.0.0") {
    notes.push(
      "Ollama reports 0.0.0 for builds from source; the oldest behaviour was assumed. Pass the release your build is based on.",
    );
  }
  if (!hasTools) return notes;
  if (f.structDump) {
    notes.push(
      `Ollama ${f.version} (≥ 0.14) shows the model a Go struct dump instead of JSON for each tool: {name description {type <nil> <nil> [required…] {properties as JSON}}}, because its template tool types lost their String() method (ollama/ollama#14601). Releases up to 0.13.5 print compact JSON.`,
    );
  } else {
    notes.push(
      `Ollama ${f.version} prints each tool with Go's json.Marshal: compact, fields in Go struct order (required before properties), property names sorted, unknown JSON Schema keys dropped, and < > & escaped as \\u003c \\u003e \\u0026. From 0.14 it prints a Go struct dump instead (ollama/ollama#14601).`,
    );
  }
  return notes;
}

/** What collating the chat did, and what the template will not show of each message. */
export function preparedNotes(prepared: Prepared, template: string): string[] {
  const notes: string[] = [];
  if (prepared.defaultSystemUsed) {
    notes.push(
      'The first message is not a system message, so Ollama put the model\'s own SYSTEM text first (path "model SYSTEM").',
    );
  }
  notes.push(...prepared.notes);
  notes.push(...messageNotes(prepared.messages, prepared.origins, template));
  return notes;
}

function messageNotes(msgs: MessageInput[], origins: number[][], template: string): string[] {
  const notes: string[] = [];
  const qwenLike =
    template.includes("{{ if .Content }}{{ .Content }}") && template.includes("{{- else if .ToolCalls }}");
  msgs.forEach((m, i) => {
    const at = origins[i]!.join(", ");
    if (qwenLike && m.role === "assistant" && m.content !== "" && m.toolCalls.length > 0) {
      notes.push(
        `Message ${at}: assistant content is present, so this template does not render its tool_calls (the model never sees those calls; ollama/ollama#10698).`,
      );
    }
    if (m.role === "tool" && (m.toolName || m.toolCallId)) {
      notes.push(
        `Message ${at}: tool_name/tool_call_id are not shown to the model; the template prints only the content.`,
      );
    }
    if (m.images && m.images.length > 0) {
      notes.push(`Message ${at} has images; this reconstruction does not insert Ollama's [img-N] tags.`);
    }
  });
  const last = msgs[msgs.length - 1];
  if (last?.role === "assistant") {
    notes.push(
      "The last message is from the assistant, so Ollama leaves its turn open (no <|im_end|>) and the model continues it.",
    );
  }
  return notes;
}

/** What the rendered chat prompt holds that reads differently to the model, and whether it may not fit. */
export function outputNotes(sink: SegmentBuilder, options: unknown, f: OllamaFeatures): string[] {
  const notes: string[] = [];
  const escaped = sink.segments.filter(
    (s) => s.kind === "tool" && /\\u00(3c|3e|26)|\\u202[89]/.test(sink.text.slice(s.start, s.end)),
  );
  if (escaped.length > 0) {
    notes.push(
      `Go's JSON encoder escaped < > & (and U+2028/U+2029) as \\u003c \\u003e \\u0026 in tool ${[...new Set(escaped.map((s) => s.toolIndex))].join(", ")}; the model reads those escapes, not the characters.`,
    );
  }
  for (const i of sink.specialInContent) {
    notes.push(
      `Message ${i} contains text like <|im_end|>; the runner tokenizes it as a real control token, not as text.`,
    );
  }
  const numCtx = (options as { num_ctx?: unknown } | undefined)?.num_ctx;
  const ctx = typeof numCtx === "number" ? numCtx : f.defaultNumCtx;
  // About 3 bytes per token is a generous lower bound for English text and JSON with the Qwen tokenizer.
  if (new TextEncoder().encode(sink.text).length / 3 > ctx) {
    notes.push(
      `${MAY_EXCEED_NOTE} (num_ctx ${ctx}${typeof numCtx === "number" ? "" : ", Ollama's default"}); Ollama would then drop the oldest non-system messages until it fits. This render shows the prompt before truncation.`,
    );
  }
  return notes;
}
