/**
 * How a model server builds a model's prompt, read from its `POST /api/show` answer: with the model's Go TEMPLATE
 * (which hopscope's prompt engine can run), with a built-in Go renderer named in the Modelfile (`RENDERER x`), or
 * with a Jinja chat template llama-server applies (Ollama's "native" chat mode, where /api/show returns the
 * GGUF's `tokenizer.chat_template`). Only the first can be reconstructed; for the others the server's own
 * `_debug_render_only` render is what the model saw.
 */
import type { ShowResponse } from "./schemas";

export type ModelRendering =
  | { kind: "template"; template: string; system: string; family: string | null }
  | { kind: "renderer"; renderer: string; parser: string | null; family: string | null }
  | { kind: "chat-template"; family: string | null };

/** A Modelfile command's argument (`RENDERER qwen3-coder`, or `"""…"""`-quoted), or null when absent. */
export function modelfileCommand(modelfile: string | undefined, command: string): string | null {
  if (!modelfile) return null;
  const m = new RegExp(`^${command}[ \\t]+(.+)$`, "mi").exec(modelfile);
  if (!m) return null;
  const arg = m[1]!.trim();
  const quoted = /^"""([\s\S]*)"""$/.exec(arg) ?? /^"(.*)"$/.exec(arg);
  return (quoted ? quoted[1]! : arg) || null;
}

/** Jinja statement or comment tags: a chat template for llama-server, not a Go text/template. */
const JINJA = /\{%-?|\{#/;

export function renderingOf(show: ShowResponse): ModelRendering {
  const family = show.details?.family || null;
  const renderer = show.renderer || modelfileCommand(show.modelfile, "RENDERER");
  if (renderer)
    return { kind: "renderer", renderer, parser: show.parser || modelfileCommand(show.modelfile, "PARSER"), family };
  const template = show.template ?? "";
  if (JINJA.test(template)) return { kind: "chat-template", family };
  return { kind: "template", template, system: show.system ?? "", family };
}

/**
 * The vocabulary the project's tokenizer counts a family's prompts with (/api/show details.family; GGUF
 * general.architecture), or null for a family it does not cover — then the server's own count is the only one.
 * Qwen3's dense and MoE models (qwen3-coder included) share one tokenizer: Qwen2.5's plus four added tokens.
 */
export function vocabularyForFamily(family: string | null): "qwen2.5" | "qwen3" | null {
  if (family === null || family === "qwen2") return "qwen2.5";
  if (family === "qwen3" || family === "qwen3moe") return "qwen3";
  return null;
}
