/** Messages between the main thread and the tokenizer thread (./thread.ts). */
import type { QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import type { PromptFacts, PromptFactsInput } from "@hopscope/shared/dialects/prompt-facts";
import type { RenderOptions, RenderResult } from "@hopscope/shared/prompt/render";
import type { FamilyComparison, PromptTokens } from "@hopscope/shared/trace/views";

export interface TokenizerChoice {
  /** The Ollama version whose llama.cpp rules apply; the stand-in's default when left out. */
  ollamaVersion?: string;
  vocabulary: QwenVocabulary;
}

export type TokenJob =
  | ({ op: "tokens"; text: string } & TokenizerChoice)
  | ({ op: "count"; text: string } & TokenizerChoice)
  | { op: "facts"; input: Omit<PromptFactsInput, "count">; choice: TokenizerChoice }
  | { op: "families"; input: FamiliesInput };

/** What the family comparisons need: the native request, its render, the template in force and the vocabulary. */
export interface FamiliesInput {
  req: Record<string, unknown>;
  rendered: Pick<RenderResult, "text" | "ollamaVersion">;
  opts: Pick<RenderOptions, "template" | "system">;
  /** Counted with this vocabulary; null: no counts. */
  vocabulary: QwenVocabulary | null;
}

export type TokenAnswer =
  | { op: "tokens"; tokens: PromptTokens }
  | { op: "count"; count: number }
  | { op: "facts"; facts: PromptFacts }
  | { op: "families"; comparisons: FamilyComparison[] };

export type FromTokenThread = { id: number; ok: true; answer: TokenAnswer } | { id: number; ok: false; error: string };
export type ToTokenThread = { id: number; job: TokenJob };
