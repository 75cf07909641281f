/**
 * Does an API read delay a stream passing through a tap? A recorder child with a few hundred exchanges
 * stored; the upstream streams 40 NDJSON lines 25 ms apart through the model tap, once with nobody reading
 * the API and once with 50 concurrent clients reading it in a loop (GET /api/traces, then one trace).
 * Reported: the largest gap between lines as received, each way, alternated over `rounds` (median of each),
 * and as a baseline the same readers while the stream goes through the plain Node pass-through. A read
 * that blocks the recorder's event loop shows as gaps well above the upstream's interval while read.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { nodePassthrough, startRecorder } from "./contenders/index";
import { median, stream } from "./measure";
import { post } from "./traffic";

export interface ReadersBench {
  rounds: number;
  readers: number;
  lines: number;
  intervalMs: number;
  idleMaxGapMs: number[];
  readMaxGapMs: number[];
  /** The same readers on the recorder while the stream goes through the plain Node pass-through instead. */
  baselineMaxGapMs: number[];
  /** API reads answered during the read runs. */
  reads: number;
}

const LINES = 40;
const INTERVAL_MS = 25;
const READERS = 50;

export async function runReadersBench(
  upstreamPort: number,
  log: (s: string) => void,
  rounds = 3,
): Promise<ReadersBench> {
  const r = await startRecorder(upstreamPort);
  const out: ReadersBench = {
    rounds,
    readers: READERS,
    lines: LINES,
    intervalMs: INTERVAL_MS,
    idleMaxGapMs: [],
    readMaxGapMs: [],
    baselineMaxGapMs: [],
    reads: 0,
  };
  const passthrough = await nodePassthrough.start(upstreamPort);
  try {
    const api = `http://127.0.0.1:${r.uiPort}`;
    log("bench: readers: seeding 300 exchanges");
    for (let i = 0; i < 300; i += 30) {
      await Promise.all(
        Array.from({ length: 30 }, (_, j) =>
          post(
            `http://127.0.0.1:${r.mcpPort}/mcp`,
            `{"jsonrpc":"2.0","id":${i + j},"method":"tools/call","params":{"name":"append","arguments":{"text":"milk"}}}`,
          ),
        ),
      );
    }
    const genUrl = `http://127.0.0.1:${r.modelPort}/api/generate`;
    for (let round = 0; round < rounds; round++) {
      log(`bench: readers: round ${round + 1}/${rounds}`);
      out.idleMaxGapMs.push((await stream(genUrl, LINES, INTERVAL_MS)).maxGapMs);
      // The readers run in a process of their own: in this one, their work would delay our own reading of the stream.
      const child = spawn(
        process.execPath,
        ["--import", "tsx", fileURLToPath(new URL("./api-readers.ts", import.meta.url)), api, String(READERS)],
        { stdio: ["pipe", "pipe", "inherit"] },
      );
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      out.readMaxGapMs.push((await stream(genUrl, LINES, INTERVAL_MS)).maxGapMs);
      // Baseline: the same load on the box, the stream through a proxy that has no API at all.
      out.baselineMaxGapMs.push(
        (await stream(`http://127.0.0.1:${passthrough.modelPort}/api/generate`, LINES, INTERVAL_MS)).maxGapMs,
      );
      child.stdin.end();
      await exited;
      out.reads += Number(output.trim()) || 0;
    }
  } finally {
    await r.stop();
    r.cleanup();
    await passthrough.stop();
  }
  return out;
}

export function readersSection(b: ReadersBench | null | undefined): string[] {
  if (!b) return [];
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "–");
  const idle = median(b.idleMaxGapMs);
  const read = median(b.readMaxGapMs);
  const base = median(b.baselineMaxGapMs ?? []);
  return [
    "## A stream while the API is read",
    "",
    `The upstream streams ${b.lines} lines ${b.intervalMs} ms apart through hopscope's model tap; the largest gap between lines as received, with nobody reading the API and with ${b.readers} concurrent clients reading it in a loop (\`GET /api/traces\`, then one trace; ${b.reads} reads answered), ${b.rounds} alternating rounds: idle ${b.idleMaxGapMs.map(f).join(", ")} ms (median ${f(idle)}), while read ${b.readMaxGapMs.map(f).join(", ")} ms (median ${f(read)}); baseline, the same readers on the recorder while the stream goes through the plain Node pass-through (no API; what the load alone does to a stream on this box): ${(b.baselineMaxGapMs ?? []).map(f).join(", ")} ms (median ${f(base)}). A gap is at least the upstream's ${b.intervalMs} ms.`,
    "",
  ];
}
