/**
 * The soak (`--soak`, `--soak-minutes N`, default 10; `--soak-rate R`, default 100 requests/s): steady,
 * moderate traffic through hopscope's taps (4 in 5 MCP-like, 1 in 5 chat-like 2 KB answers), the
 * recorder's RSS and database size (file + WAL) sampled every 30 s. At the end the recorder is stopped
 * (it flushes on SIGTERM) and its SQLite file is opened read-only: every answered request must be an
 * exchange there.
 */
import { statSync } from "node:fs";
import Database from "better-sqlite3";
import { startRecorder } from "./contenders/index";
import { CHAT_BODY, MCP_BODY } from "./measure";
import { treeRssMiB } from "./proc";
import type { SoakBench, SoakSample } from "./results";
import { startUpstream } from "./start-upstream";
import { paced, post } from "./traffic";

const SAMPLE_EVERY_MS = 30_000;

function fileMiB(path: string): number {
  try {
    return statSync(path).size / 2 ** 20;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0; // no WAL yet
    throw err;
  }
}
const dbMiB = (file: string) => fileMiB(file) + fileMiB(`${file}-wal`);

export async function runSoak(
  log: (s: string) => void,
  opts: { minutes: number; ratePerSecond: number },
): Promise<SoakBench> {
  const upstream = await startUpstream();
  const recorder = await startRecorder(upstream.port);
  try {
    const pid = recorder.pid;
    if (pid === null) throw new Error("the recorder has no pid to sample");
    const mcp = `http://127.0.0.1:${recorder.mcpPort}/mcp`;
    const chat = `http://127.0.0.1:${recorder.modelPort}/api/chat`;
    const samples: SoakSample[] = [];
    let sentSoFar = 0;
    const t0 = performance.now();
    const sample = () => {
      const s = {
        atSeconds: (performance.now() - t0) / 1000,
        rssMiB: treeRssMiB(pid),
        dbMiB: dbMiB(recorder.dbFile),
        requestsSent: sentSoFar,
      };
      samples.push(s);
      log(
        `bench: soak: ${s.atSeconds.toFixed(0)} s, ${s.requestsSent} requests, RSS ${s.rssMiB.toFixed(0)} MiB, db ${s.dbMiB.toFixed(1)} MiB`,
      );
    };
    sample();
    const timer = setInterval(sample, SAMPLE_EVERY_MS);
    log(`bench: soak: ${opts.minutes} min at ${opts.ratePerSecond} requests/s through hopscope`);
    const result = await paced({
      ratePerSecond: opts.ratePerSecond,
      seconds: opts.minutes * 60,
      send: (i) => (i % 5 === 4 ? post(chat, CHAT_BODY) : post(mcp, MCP_BODY)),
      onTick: (n) => (sentSoFar = n),
    }).finally(() => clearInterval(timer));
    const died = recorder.failure();
    if (died) throw new Error(`soak: ${died}`);
    sample();
    const rss = samples.map((s) => s.rssMiB);
    await recorder.stop();
    const db = new Database(recorder.dbFile, { readonly: true, fileMustExist: true });
    let exchangesRecorded: number;
    try {
      exchangesRecorded = (db.prepare("SELECT COUNT(*) AS n FROM exchanges").get() as { n: number }).n;
    } finally {
      db.close();
    }
    const dbEnd = dbMiB(recorder.dbFile);
    log(
      `bench: soak: ${result.sent} sent (${result.errors} errors${result.firstError ? `; the first: ${result.firstError}` : ""}), ${exchangesRecorded} recorded`,
    );
    return {
      minutes: opts.minutes,
      ratePerSecond: result.sent / result.elapsed,
      requestsSent: result.sent,
      errors: result.errors,
      exchangesRecorded,
      lost: Math.max(0, result.sent - exchangesRecorded),
      rssMiBStart: rss[0] ?? Number.NaN,
      rssMiBMax: Math.max(...rss),
      rssMiBEnd: rss.at(-1) ?? Number.NaN,
      dbMiBEnd: dbEnd,
      dbBytesPerExchange: exchangesRecorded > 0 ? (dbEnd * 2 ** 20) / exchangesRecorded : Number.NaN,
      samples,
    };
  } finally {
    await recorder.stop();
    recorder.cleanup();
    upstream.stop();
  }
}
