/**
 * The tokenizer thread: token ids and counts, computed here so that a prompt
 * of megabytes (seconds of tokenising) never holds up the API, the live feed or the audience port on the
 * main thread. Jobs run one at a time, in the order they arrive.
 */
import { parentPort } from "node:worker_threads";
import { promptFacts, type PromptFactsInput } from "@hopscope/shared/dialects/prompt-facts";
import { PathMap } from "@hopscope/shared/dialects/path-map";
import { loadQwenTokenizer, type QwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { scriptSafeJson } from "@hopscope/shared/trace/share";
import type { PromptTokens } from "@hopscope/shared/trace/views";
import type {
  FactsInput,
  FamiliesInput,
  FromTokenThread,
  TokenAnswer,
  TokenJob,
  TokensJson,
  ToTokenThread,
} from "./protocol";
import { familyComparisons } from "./family-comparison";
import { MAX_TOKENIZED_CHARS } from "./limits";

async function run(job: TokenJob): Promise<TokenAnswer> {
  if (job.op === "facts") {
    // The budget and the truncation search count many texts as long as the prompt: all of it here.
    const tokenizer = await loadQwenTokenizer(job.choice.ollamaVersion, job.choice.vocabulary);
    const input = { ...factsInput(job.input), count: (text: string) => tokenizer.count(text) };
    return { op: "facts", facts: promptFacts(input) };
  }
  if (job.op === "families") return { op: "families", comparisons: await families(job.input) };
  const tokenizer = await loadQwenTokenizer(job.ollamaVersion, job.vocabulary);
  if (job.op === "count") return { op: "count", count: tokenizer.count(job.text) };
  return { op: "tokens", tokens: tokensJson(tokensOf(tokenizer, job.text)) };
}

/** The request as each other family renders it, each counted with the view's vocabulary under its own rules. */
function families({ req, rendered, opts, vocabulary }: FamiliesInput) {
  return familyComparisons(req, rendered, opts, async (text, ollamaVersion) =>
    vocabulary && text.length <= MAX_TOKENIZED_CHARS
      ? (await loadQwenTokenizer(ollamaVersion, vocabulary)).count(text)
      : null,
  );
}

/** The conversion's path map again (a class crosses threads as its fields only), and the starts as an array. */
function factsInput(input: FactsInput): Omit<PromptFactsInput, "count"> {
  const paths = new PathMap();
  for (const p of input.render.converted.paths.pairs) paths.add(p.native, p.dialect);
  const render = { ...input.render, converted: { ...input.render.converted, paths } };
  return { ...input, render, tokenStarts: Array.from(input.tokenStarts) };
}

/** A text's tokens as the view carries them: ids, where each starts, and the displays that are not slices of the text. */
function tokensOf(tokenizer: QwenTokenizer, text: string): PromptTokens {
  const ids = tokenizer.encode(text);
  const starts = tokenizer.tokenStarts(text, ids);
  const pieces = tokenizer.pieces(ids);
  const odd: [number, string][] = [];
  pieces.forEach((piece, i) => {
    if (piece !== text.slice(starts[i], starts[i + 1] ?? text.length)) odd.push([i, piece]);
  });
  return { count: ids.length, ids, starts, odd };
}

/** The tokens as JSON text (script-safe, so a page can embed it as it is) and their starts as a typed array. */
function tokensJson(tokens: PromptTokens): TokensJson {
  return { count: tokens.count, json: scriptSafeJson(tokens), starts: Int32Array.from(tokens.starts) };
}

/** The typed arrays of an answer, moved to the main thread rather than copied. */
function transferred(answer: TokenAnswer): ArrayBuffer[] {
  return answer.op === "tokens" ? [answer.tokens.starts.buffer as ArrayBuffer] : [];
}

const port = parentPort!;
let queue = Promise.resolve();
port.on("message", ({ id, job }: ToTokenThread) => {
  queue = queue.then(async () => {
    let reply: FromTokenThread;
    try {
      reply = { id, ok: true, answer: await run(job) };
    } catch (err) {
      reply = { id, ok: false, error: (err as Error).message };
    }
    port.postMessage(reply, reply.ok ? transferred(reply.answer) : []);
  });
});
