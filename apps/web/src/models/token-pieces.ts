/**
 * Each token's text, rebuilt from the view's compact form (shared/trace/views.ts PromptTokensSchema): a slice of
 * the text from where the token starts to where the next one does, or the display the recorder sent for a token
 * that holds part of a character (`<0xE2>`).
 */
import type { PromptTokens } from "@hopscope/shared/trace/views";

export function tokenPieces(text: string, tokens: PromptTokens, first = 0, end = tokens.starts.length): string[] {
  const odd = new Map(tokens.odd);
  const out: string[] = [];
  for (let i = first; i < Math.min(end, tokens.starts.length); i++)
    out.push(odd.get(i) ?? text.slice(tokens.starts[i], tokens.starts[i + 1] ?? text.length));
  return out;
}
