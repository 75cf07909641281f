/**
 * Largest text tokenised, in UTF-16 code units: tokenising runs at roughly a megabyte a few seconds, and the
 * per-token view of a bigger prompt would outweigh the prompt itself many times. Bigger prompts still render
 * in full; their views say why they have no token counts.
 */
export const MAX_TOKENIZED_CHARS = 2 * 1024 * 1024;
