/**
 * The tokenizer thread: token ids, counts and the shared page's budget counts, computed here so that a prompt
 * of megabytes (seconds of tokenising) never holds up the API, the live feed or the audience port on the
 * main thread. Jobs run one at a time, in the order they arrive.
 */
import { parentPort } from "node:worker_threads";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { promptTokenCounts } from "../export/token-counts";
import type { FromTokenThread, TokenAnswer, TokenJob, ToTokenThread } from "./protocol";

async function run(job: TokenJob): Promise<TokenAnswer> {
  if (job.op === "budget") return { op: "budget", counts: await promptTokenCounts({ prompt: job.prompt }) };
  const tokenizer = await loadQwenTokenizer(job.ollamaVersion, job.vocabulary);
  if (job.op === "count") return { op: "count", count: tokenizer.count(job.text) };
  const ids = tokenizer.encode(job.text);
  return { op: "tokens", tokens: { count: ids.length, ids, pieces: tokenizer.pieces(ids) } };
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
    port.postMessage(reply);
  });
});
