/** Messages between the main thread and the tokenizer thread (./thread.ts). */
import type { QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import type { PromptFacts, PromptFactsInput } from "@hopscope/shared/dialects/prompt-facts";
import type { RenderOptions, RenderResult } from "@hopscope/shared/prompt/render";
import type { FamilyComparison } from "@hopscope/shared/trace/views";

export interface TokenizerChoice {
  /** The Ollama version whose llama.cpp rules apply; the stand-in's default when left out. */
  ollamaVersion?: string;
  vocabulary: QwenVocabulary;
}

export type TokenJob =
  | ({ op: "tokens"; text: string } & TokenizerChoice)
  | ({ op: "count"; text: string } & TokenizerChoice)
  | { op: "facts"; input: FactsInput; choice: TokenizerChoice }
  | { op: "families"; input: FamiliesInput };

/** What the prompt's facts need from the main thread: the token starts travel as a typed array (one copy, no per-number work). */
export type FactsInput = Omit<PromptFactsInput, "count" | "tokenStarts"> & { tokenStarts: Int32Array };

/**
 * A text's tokens as the tokenizer thread answers: the count, the full tokens (shared/trace/views PromptTokens) as
 * script-safe JSON text, and where each token starts. Turning hundreds of thousands of ids into JSON is done on that
 * thread; the API thread splices the text into its answers and never parses it.
 */
export interface TokensJson {
  count: number;
  json: string;
  starts: Int32Array;
}

/** What the family comparisons need: the native request, its render, the template in force and the vocabulary. */
export interface FamiliesInput {
  req: Record<string, unknown>;
  rendered: Pick<RenderResult, "text" | "ollamaVersion">;
  opts: Pick<RenderOptions, "template" | "system">;
  /** Counted with this vocabulary; null: no counts. */
  vocabulary: QwenVocabulary | null;
}

export type TokenAnswer =
  | { op: "tokens"; tokens: TokensJson }
  | { op: "count"; count: number }
  | { op: "facts"; facts: PromptFacts }
  | { op: "families"; comparisons: FamilyComparison[] };

export type FromTokenThread = { id: number; ok: true; answer: TokenAnswer } | { id: number; ok: false; error: string };
export type ToTokenThread = { id: number; job: TokenJob };
