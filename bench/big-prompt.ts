/**
 * How long the recorder's API thread is held by a prompt of megabytes: the recorder on port 0 with traces holding
 * a 1 MB and a 15 MB prompt imported, and the API thread's event-loop delay recorded with `monitorEventLoopDelay`
 * while it answers `/api/exchanges/:id/views` in full (token ids and the other families: what the HTML export and
 * the audience read), the lean views the timeline asks for (`?omit=tokens,comparisons`), and the HTML export of
 * each trace (the 15 MB one is refused up front). The answer is read as chunks inside the window and joined and
 * parsed after it: this process is also the client, and its own copying and parsing is not the recorder's. The baseline, run side by side
 * in the same process: the same prompt tokenised on the calling thread (what the views did before tokenising moved
 * off it). Reported: the largest and p99 delay of each, against the target of 100 ms.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { SHARED_TRACE_PLACEHOLDERS } from "@hopscope/shared/trace/share";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { startRecorder, type TestRecorder } from "../tests/support/recorder";
import { runLongPieceBench, type LongPieceCase } from "./long-piece";
import { median } from "./measure";

/** One request's hold on the API thread. */
export interface HeldThread {
  /** Largest and p99 event-loop delay of the API thread while the request was answered, ms. */
  maxDelayMs: number;
  p99DelayMs: number;
  wallMs: number;
  status: number;
  bytes: number;
}

export interface BigPromptBench {
  promptBytes: number;
  tokens: number;
  /**
   * Full views (first ask: rendered, tokenised, compared with the other families): the median over VIEWS_RUNS fresh
   * exchanges of each one's largest delay (a loaded machine's scheduling adds its own), and each run's.
   */
  viewsMaxDelayMs: number;
  viewsRunsMaxDelayMs?: number[];
  viewsP99DelayMs: number;
  viewsWallMs: number;
  /** Lean views of a fresh exchange holding the same prompt. */
  lean?: HeldThread;
  /** The HTML export of the 1 MB trace (views kept from the full ask), and of the 15 MB one (refused). */
  htmlExport?: HeldThread;
  hugeExport?: HeldThread & { promptBytes: number };
  /** The full views of the 15 MB prompt (rendered in full, too large to tokenise). */
  hugeViews?: HeldThread;
  /** The same prompt tokenised on the measured thread itself. */
  inlineMaxDelayMs: number;
  inlineP99DelayMs: number;
  /** One long pre-tokenizer piece against the Hugging Face tokenizer's own merge loop (./long-piece.ts). */
  longPieces?: LongPieceCase[];
}

/** The target: no request holds the API thread longer than this at a time. */
export const HOLD_TARGET_MS = 100;

const MB = 1024 * 1024;
/** Fresh exchanges whose full views are measured (the first also starts the tokenizer thread). */
const VIEWS_RUNS = 3;
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

/** One GET, its body read as bytes (not parsed) while the API thread is watched. */
async function held(url: string): Promise<{ held: HeldThread; body: Buffer }> {
  const started = performance.now();
  const got = await delayedWhile(async () => {
    const res = await fetch(url);
    // Chunks as they come, joined after the window: one copy of tens of megabytes is this client's work, not the recorder's.
    const chunks: Uint8Array[] = [];
    const reader = res.body?.getReader();
    for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) chunks.push(next.value);
    return { status: res.status, chunks };
  });
  const wallMs = performance.now() - started;
  const { status } = got.value;
  const body = Buffer.concat(got.value.chunks);
  return { held: { maxDelayMs: got.maxMs, p99DelayMs: got.p99Ms, wallMs, status, bytes: body.length }, body };
}

/** The article's trace with its first model chat's user message grown to `bytes`, imported; its chat's id. */
async function importWithPrompt(rec: TestRecorder, bytes: number): Promise<{ traceId: string; exchangeId: number }> {
  const bundle = JSON.parse(await readFile(ARTICLE, "utf8"));
  const chat = bundle.exchanges.find(
    (x: { classification: { kind: string } }) => x.classification.kind === "model.chat",
  );
  const body = JSON.parse(chat.requestBody.data);
  body.messages[0].content = promptOf(bytes);
  chat.requestBody.data = JSON.stringify(body);
  chat.requestBody.size = chat.requestBody.storedSize = chat.requestBody.data.length;
  const imported = await fetch(`${rec.url}/api/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(bundle),
  });
  if (imported.status !== 200)
    throw new Error(`import of a ${bytes} B prompt: ${imported.status} ${await imported.text()}`);
  const { id } = (await imported.json()) as { id: string };
  const trace = (await (await fetch(`${rec.url}/api/traces/${id}`)).json()) as {
    exchanges: { id: number; classification: { kind: string } }[];
  };
  return { traceId: id, exchangeId: trace.exchanges.find((x) => x.classification.kind === "model.chat")!.id };
}

function promptOf(bytes: number): string {
  const line = "Please keep this line in my notes, word for word. ";
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

export async function runBigPromptBench(log: (s: string) => void): Promise<BigPromptBench> {
  log("bench: a 1 MB prompt's views and page, the API thread's event-loop delay");
  // The shared page's template, the two placeholders each once: what the export fills does not depend on the rest.
  const webDist = await mkdtemp(join(tmpdir(), "hopscope-bench-share-"));
  const { trace, title } = SHARED_TRACE_PLACEHOLDERS;
  await writeFile(join(webDist, "share.html"), `<title>${title}</title><script>${trace}</script>`);
  const rec = await startRecorder({}, { webDist });
  try {
    const one = await importWithPrompt(rec, MB);
    const full = await held(`${rec.url}/api/exchanges/${one.exchangeId}/views`);
    const runs = [full.held];
    while (runs.length < VIEWS_RUNS) {
      const again = await importWithPrompt(rec, MB);
      runs.push((await held(`${rec.url}/api/exchanges/${again.exchangeId}/views`)).held);
    }
    const viewsRunsMaxDelayMs = runs.map((r) => r.maxDelayMs);
    const views = JSON.parse(full.body.toString()) as { prompt?: { tokens?: { count: number } | null } };
    const htmlExport = (await held(`${rec.url}/api/traces/${one.traceId}/export?format=html`)).held;
    const fresh = await importWithPrompt(rec, MB);
    const lean = (await held(`${rec.url}/api/exchanges/${fresh.exchangeId}/views?omit=tokens,comparisons`)).held;
    const huge = await importWithPrompt(rec, 15 * MB);
    const hugeExport = (await held(`${rec.url}/api/traces/${huge.traceId}/export?format=html`)).held;
    const hugeViews = (await held(`${rec.url}/api/exchanges/${huge.exchangeId}/views`)).held;
    const tokenizer = await loadQwenTokenizer();
    const prompt = promptOf(MB);
    const inline = await delayedWhile(async () => tokenizer.count(prompt));
    const result: BigPromptBench = {
      promptBytes: MB,
      tokens: views.prompt?.tokens?.count ?? 0,
      viewsMaxDelayMs: median(viewsRunsMaxDelayMs),
      viewsRunsMaxDelayMs,
      viewsP99DelayMs: full.held.p99DelayMs,
      viewsWallMs: full.held.wallMs,
      lean,
      htmlExport,
      hugeExport: { ...hugeExport, promptBytes: 15 * MB },
      hugeViews,
      inlineMaxDelayMs: inline.maxMs,
      inlineP99DelayMs: inline.p99Ms,
      longPieces: await runLongPieceBench(log),
    };
    log(
      `bench: 1 MB prompt: API thread held at most ${viewsRunsMaxDelayMs.map((ms) => ms.toFixed(0)).join(", ")} ms by the full views, ` +
        `${lean.maxDelayMs.toFixed(0)} ms by the lean ones, ${htmlExport.maxDelayMs.toFixed(0)} ms by the HTML export ` +
        `(15 MB: export ${hugeExport.maxDelayMs.toFixed(0)} ms, ${hugeExport.status}; views ${hugeViews.maxDelayMs.toFixed(0)} ms); inline tokenising: ${inline.maxMs.toFixed(0)} ms`,
    );
    return result;
  } finally {
    await rec.close();
    await rm(webDist, { recursive: true, force: true });
  }
}

if (process.argv[1] === import.meta.filename) {
  const r = await runBigPromptBench((s) => process.stderr.write(`${s}\n`));
  process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
}
