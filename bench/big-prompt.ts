/**
 * How long the recorder's API thread is held while a 1 MB prompt is tokenised: the recorder on port 0 with a
 * trace holding a 1 MB prompt imported, `/api/exchanges/:id/views` asked for it (tokenised on the tokenizer
 * thread), and the API thread's event-loop delay recorded with `monitorEventLoopDelay` meanwhile. The
 * baseline, run side by side in the same process: the same prompt tokenised on the calling thread (what the
 * views did before tokenising moved off it). Reported: the largest and p99 delay of each, and their ratio.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { startRecorder } from "../tests/support/recorder";

export interface BigPromptBench {
  promptBytes: number;
  tokens: number;
  /** Largest and p99 event-loop delay of the API thread while the views were built, ms. */
  viewsMaxDelayMs: number;
  viewsP99DelayMs: number;
  viewsWallMs: number;
  /** The same prompt tokenised on the measured thread itself. */
  inlineMaxDelayMs: number;
  inlineP99DelayMs: number;
}

const MB = 1024 * 1024;
const ARTICLE = join(import.meta.dirname, "..", "traces", "buy-milk.hopscope.json");

async function delayedWhile<T>(work: () => Promise<T>): Promise<{ value: T; maxMs: number; p99Ms: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  // A delay is measured between two ticks of the histogram's timer: let it tick before the work starts.
  await new Promise((r) => setTimeout(r, 30));
  const value = await work();
  // The histogram samples on a timer: let it fire once after the work, so a block that just ended counts.
  await new Promise((r) => setTimeout(r, 30));
  h.disable();
  return { value, maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6 };
}

export async function runBigPromptBench(log: (s: string) => void): Promise<BigPromptBench> {
  log("bench: a 1 MB prompt's views, the API thread's event-loop delay");
  const rec = await startRecorder();
  try {
    const bundle = JSON.parse(await readFile(ARTICLE, "utf8"));
    const chat = bundle.exchanges.find(
      (x: { classification: { kind: string } }) => x.classification.kind === "model.chat",
    );
    const body = JSON.parse(chat.requestBody.data);
    const line = "Please keep this line in my notes, word for word. ";
    const prompt = line.repeat(Math.ceil(MB / line.length)).slice(0, MB);
    body.messages[0].content = prompt;
    chat.requestBody.data = JSON.stringify(body);
    chat.requestBody.size = chat.requestBody.storedSize = chat.requestBody.data.length;
    const imported = await fetch(`${rec.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(bundle),
    });
    const { id } = (await imported.json()) as { id: string };
    const trace = (await (await fetch(`${rec.url}/api/traces/${id}`)).json()) as {
      exchanges: { id: number; classification: { kind: string } }[];
    };
    const exchangeId = trace.exchanges.find((x) => x.classification.kind === "model.chat")!.id;
    const started = performance.now();
    const views = await delayedWhile(async () => {
      const res = await fetch(`${rec.url}/api/exchanges/${exchangeId}/views`);
      return (await res.json()) as { prompt?: { tokens?: { count: number } | null } };
    });
    const viewsWallMs = performance.now() - started;
    const tokenizer = await loadQwenTokenizer();
    const inline = await delayedWhile(async () => tokenizer.count(prompt));
    const result: BigPromptBench = {
      promptBytes: MB,
      tokens: views.value.prompt?.tokens?.count ?? 0,
      viewsMaxDelayMs: views.maxMs,
      viewsP99DelayMs: views.p99Ms,
      viewsWallMs,
      inlineMaxDelayMs: inline.maxMs,
      inlineP99DelayMs: inline.p99Ms,
    };
    log(
      `bench: 1 MB prompt: API thread held at most ${views.maxMs.toFixed(0)} ms (inline tokenising: ${inline.maxMs.toFixed(0)} ms)`,
    );
    return result;
  } finally {
    await rec.close();
  }
}

if (process.argv[1] === import.meta.filename) {
  const r = await runBigPromptBench((s) => process.stderr.write(`${s}\n`));
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
