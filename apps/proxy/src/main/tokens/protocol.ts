/** Messages between the main thread and the tokenizer thread (./thread.ts). */
import type { QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import type { ExchangeViews } from "@hopscope/shared/trace/views";

export interface TokenizerChoice {
  /** The Ollama version whose llama.cpp rules apply; the stand-in's default when left out. */
  ollamaVersion?: string;
  vocabulary: QwenVocabulary;
}

export type TokenJob =
  | ({ op: "tokens"; text: string } & TokenizerChoice)
  | ({ op: "count"; text: string } & TokenizerChoice)
  | { op: "budget"; prompt: NonNullable<ExchangeViews["prompt"]> };

export interface Tokens {
  count: number;
  ids: number[];
  pieces: string[];
}

export type TokenAnswer =
  | { op: "tokens"; tokens: Tokens }
  | { op: "count"; count: number }
  | { op: "budget"; counts: [number, number, number][] };

export type FromTokenThread = { id: number; ok: true; answer: TokenAnswer } | { id: number; ok: false; error: string };
export type ToTokenThread = { id: number; job: TokenJob };
