/**
 * "What the model saw", next to how each other Ollama family renders the same request: from 0.14 the qwen2.5
 * template prints each tool as a Go struct dump (ollama/ollama#14601), and from 0.20 a nested property keeps its
 * own `required` (ollama/ollama#15214), so a learner on today's Ollama sees a prompt the article (0.13.5) does not
 * show, and the reverse. Each comparison is rendered with the same template and SYSTEM as the main view, counted
 * with that family's tokenizer, and names the changes between the two families and which of them touch this
 * request. Run on the tokenizer thread: rendering a prompt of megabytes again per family takes long.
 */
import { renderChat, type RenderOptions, type RenderResult } from "@hopscope/shared/prompt/render";
import { RenderInputError } from "@hopscope/shared/prompt/tool-decode";
import { OLLAMA_FAMILIES, changesBetween, familyOf, type OllamaFamily } from "@hopscope/shared/prompt/version";
import type { FamilyComparison as Comparison } from "@hopscope/shared/trace/views";

/** Counts a text's tokens under a version's llama.cpp rules; null when it cannot (too large, or no vocabulary). */
export type CountTokens = (text: string, ollamaVersion: string) => Promise<number | null>;

/** Release order, oldest first (OLLAMA_FAMILIES is newest first). */
const OLDEST_FIRST = [...OLLAMA_FAMILIES].reverse();

/**
 * The request in every other family, oldest first; empty when the request has no tools (then every family renders
 * alike). A family that would refuse the request (RenderInputError) is left out; the main view stands.
 */
export async function familyComparisons(
  req: Record<string, unknown>,
  rendered: Pick<RenderResult, "text" | "ollamaVersion">,
  opts: Pick<RenderOptions, "template" | "system">,
  countTokens: CountTokens,
): Promise<Comparison[]> {
  if (!Array.isArray(req.tools) || req.tools.length === 0) return [];
  const mine = familyOf(rendered.ollamaVersion);
  const renders = new Map<OllamaFamily["id"], RenderResult>();
  for (const f of OLDEST_FIRST) {
    if (f.id === mine.id) continue;
    try {
      renders.set(f.id, renderChat(req, { ...opts, ollamaVersion: f.representative }));
    } catch (err) {
      if (!(err instanceof RenderInputError)) throw err;
    }
  }
  // Whether a nested `required` shows: the two struct-dump families differ only in that.
  const textOf = (id: OllamaFamily["id"]) => (id === mine.id ? rendered.text : renders.get(id)?.text);
  const a = textOf("0.14");
  const b = textOf("0.20+");
  const nestedRequired = a !== undefined && b !== undefined && a !== b;
  const mineAt = OLDEST_FIRST.findIndex((f) => f.id === mine.id);
  const out: Comparison[] = [];
  for (const [i, f] of OLDEST_FIRST.entries()) {
    const other = renders.get(f.id);
    if (f.id === mine.id || !other) continue;
    // Counted with the main view's vocabulary (if any), under that family's llama.cpp rules.
    const tokenCount = await countTokens(other.text, other.ollamaVersion);
    const same = other.text === rendered.text;
    // The same prompt is not sent again: the view already carries it.
    out.push({
      familyId: f.id,
      ollamaVersion: other.ollamaVersion,
      familyLabel: f.label,
      comparedWith: mine.label,
      newer: i > mineAt,
      same,
      text: same ? "" : other.text,
      segments: same ? [] : other.segments,
      toolFormat: other.toolFormat,
      tokenCount,
      reasons: changesBetween(mine.id, f.id).map((c) => ({
        kind: c.kind,
        ...c.reason,
        applies: c.kind === "struct-dump" || nestedRequired,
      })),
    });
  }
  return out;
}
