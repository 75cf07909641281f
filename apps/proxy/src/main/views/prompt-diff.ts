/** How a prompt extends the previous one of its trace: the previous chat rendered the same way, and their common prefix. */
import type { Dialect } from "@hopscope/shared/dialects/dialect";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import type { RecordingLink } from "../../link/calls";
import { renderExchange, viewDialect } from "./dialect-request";

/** The comparison, or null with a note (and the build marked as worth doing again) when it cannot be made. */
export async function diffOrNote(
  link: RecordingLink,
  ex: Exchange,
  text: string,
  opts: { ollamaVersion?: string },
  ctx: { notes: string[]; transient: boolean },
): Promise<ExchangeViews["diff"] | null> {
  try {
    return await diffWithPrevious(link, ex, text, opts);
  } catch (err) {
    ctx.transient = true;
    ctx.notes.push(`no comparison with the previous prompt: ${(err as Error).message}`);
    return null;
  }
}

/** The previous chat of the trace, rendered the same way (in its own dialect), against this prompt. */
async function diffWithPrevious(
  link: RecordingLink,
  ex: Exchange,
  text: string,
  opts: { ollamaVersion?: string },
): Promise<ExchangeViews["diff"] | null> {
  const prev = await link.call("previousChat", ex.traceId, ex.seq);
  const d: Dialect | null = prev ? viewDialect(prev) : null;
  if (!prev || !d) return null;
  const outcome = renderExchange(prev, d, opts);
  if (outcome.kind !== "rendered") return null;
  const prevText = outcome.render.text;
  let i = 0;
  while (i < prevText.length && i < text.length && prevText.charCodeAt(i) === text.charCodeAt(i)) i++;
  return { previousExchangeId: prev.id, commonPrefixLength: i, previousLength: prevText.length };
}
