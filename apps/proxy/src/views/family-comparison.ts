/**
 * "What the model saw", next to how an older Ollama family rendered the same request: from 0.14 the qwen2.5
 * template prints each tool as a Go struct dump (ollama/ollama#14601), so a learner on today's Ollama sees a
 * prompt the article (0.13.5) does not show. The comparison is rendered with the same template and SYSTEM as
 * the main view and counted with that family's tokenizer.
 */
import { renderChat, type RenderOptions, type RenderResult } from "@hopscope/shared/prompt/render";
import { OLLAMA_FAMILIES, STRUCT_DUMP_REASON, familyOf } from "@hopscope/shared/prompt/version";
import { loadQwenTokenizer, type QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import type { ExchangeViews } from "@hopscope/shared/trace/views";

type Comparison = NonNullable<NonNullable<ExchangeViews["prompt"]>["comparison"]>;

/** The family tools were JSON in: what the article shows and what qwen2.5 was trained to read. */
const JSON_FAMILY = OLLAMA_FAMILIES.find((f) => f.toolFormat === "json")!;

/**
 * The older family's render of `req`, or null when there is nothing to compare: the view is already in the JSON
 * family, the request has no tools (then every family renders alike), or the older render fails.
 */
export async function familyComparison(
  req: Record<string, unknown>,
  rendered: RenderResult,
  opts: Pick<RenderOptions, "template" | "system"> = {},
  vocabulary: QwenVocabulary | null = "qwen2.5",
): Promise<Comparison | null> {
  const family = familyOf(rendered.ollamaVersion);
  if (family.toolFormat === "json" || !Array.isArray(req.tools) || req.tools.length === 0) return null;
  let older: RenderResult;
  try {
    older = renderChat(req, { ...opts, ollamaVersion: JSON_FAMILY.representative });
  } catch {
    // A request today's Ollama takes and 0.13.5 would refuse has no older render to show; the main view stands.
    return null;
  }
  if (older.text === rendered.text) return null;
  // Counted with the main view's vocabulary (if any), under the older family's llama.cpp rules.
  const tokenizer = vocabulary ? await loadQwenTokenizer(older.ollamaVersion, vocabulary).catch(() => null) : null;
  return {
    ollamaVersion: older.ollamaVersion,
    familyLabel: JSON_FAMILY.label,
    comparedWith: family.label,
    text: older.text,
    segments: older.segments,
    toolFormat: older.toolFormat,
    tokenCount: tokenizer ? tokenizer.count(older.text) : null,
    reason: { ...STRUCT_DUMP_REASON },
  };
}
