/**
 * Words for the token counts of a model request: how our count compares with the model server's
 * `prompt_eval_count`, and how the generated text's compares with `eval_count`. The budget itself comes with the
 * views (computed where the prompt is rendered).
 */

/**
 * Our count against the server's `prompt_eval_count`, in words: equal, fewer (the server reused a cached
 * prefix and evaluated only the rest), or more (the server rendered a different prompt: another template
 * or Ollama version).
 */
export function countAgreement(
  ours: number,
  server: number | undefined,
): { equal: boolean; text: string; detail: string } {
  if (server === undefined)
    return {
      equal: false,
      text: `${ours.toLocaleString()} tokens, as our tokenizer counts`,
      detail: "The model server's answer carried no prompt_eval_count to check against.",
    };
  if (server === ours)
    return {
      equal: true,
      text: `${ours.toLocaleString()} tokens, as the model server counted`,
      detail: `prompt_eval_count in the model server's answer is ${server.toLocaleString()}: the same as the Qwen tokenizer's count of this prompt.`,
    };
  if (server < ours) {
    return {
      equal: false,
      text: `${ours.toLocaleString()} tokens; the server evaluated ${server.toLocaleString()}`,
      detail: `prompt_eval_count counts only the tokens the server had to evaluate: ${(ours - server).toLocaleString()} tokens at the start were already in its cache from the previous request (or the prompt was cut to fit num_ctx).`,
    };
  }
  return {
    equal: false,
    text: `${ours.toLocaleString()} tokens here; the server counted ${server.toLocaleString()}`,
    detail: `The server counted ${(server - ours).toLocaleString()} more tokens than this prompt has: it rendered a different prompt (another template, Ollama version or system text).`,
  };
}

/**
 * The tokens of the text the model wrote against the server's `eval_count`, in words. The server also counts
 * the token that ended the turn (`<|im_end|>`), which the text shown does not contain: one more is expected.
 */
export function generatedAgreement(ours: number, evalCount: number | undefined): string {
  if (evalCount === undefined) return `${ours.toLocaleString()} tokens in this text, as our tokenizer counts`;
  if (evalCount === ours) return `${ours.toLocaleString()} tokens generated, as the model server counted (eval_count)`;
  if (evalCount === ours + 1)
    return `${evalCount.toLocaleString()} tokens generated, as the model server counted (eval_count): the ${ours.toLocaleString()} of this text, plus <|im_end|>, the token that ended its turn`;
  return `${ours.toLocaleString()} tokens in this text; the model server counted ${evalCount.toLocaleString()} generated (eval_count) — it stopped on another token, or the text was rebuilt differently from what it wrote`;
}
