/**
 * `npm run -s hopscope -- replay`, run as a speaker runs it: a child process pointed (HOPSCOPE_URL) at a
 * real recorder on port 0, replaying a curated trace file or a stored trace.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, it } from "vitest";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
import { TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import { NotesChangesSchema, type NotesChange } from "@hopscope/shared/trace/notes-file";
import { startRecorder, type TestRecorder } from "./support/recorder";
import { runHopscope } from "./support/run-cli";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUY_MILK = join(ROOT, "traces", "buy-milk.hopscope.json");

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

let recorder: TestRecorder;
let dir: string;

const hopscope = (args: string[]): Promise<Result> => runHopscope(args, recorder.url);

/** The trace once every hop of the replay is stored (the command returns as the replay starts). */
async function storedTrace(id: string, exchangeCount: number): Promise<Trace> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${recorder.url}/api/traces/${id}`);
    if (res.ok) {
      const trace = TraceSchema.parse(await res.json());
      if (trace.exchangeCount === exchangeCount && trace.exchanges.every((e) => e.state === "complete")) return trace;
    } else if (res.status !== 404) throw new Error(`GET /api/traces/${id} → ${res.status}: ${await res.text()}`);
    if (Date.now() > deadline) throw new Error(`trace ${id} never had ${exchangeCount} complete exchanges`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Taps, requests and links, by position: what a replay must keep of the original. */
function shape(trace: Trace): string[] {
  const seq = new Map(trace.exchanges.map((e) => [e.id, e.seq]));
  return [
    ...trace.exchanges.map(
      (e) => `${e.seq} ${e.tap} ${e.method} ${e.url} ${e.status} ${JSON.stringify(e.classification)}`,
    ),
    ...trace.links.map((l) => `${l.kind} ${l.toolName} #${seq.get(l.from)} → #${seq.get(l.to)}`),
  ];
}

beforeAll(async () => {
  recorder = await startRecorder();
  dir = recorder.dir;
});

afterAll(() => recorder?.close());

// Each case is a child process (about 2 s of tsx start-up), so they run concurrently.
describe.concurrent("hopscope replay", () => {
  it("replays a trace file into the running recorder and prints where to watch it", async ({ expect }) => {
    const bundle = parseTraceBundle(JSON.parse(await readFile(BUY_MILK, "utf8")));
    const { code, stdout, stderr } = await hopscope(["replay", "traces/buy-milk.hopscope.json", "--speed", "50"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const name = `${bundle.trace.name} (replay)`;
    const escaped = `${recorder.url}/#/trace/`.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    const notes = bundle.notes ?? [];
    expect(notes.length).toBe(1); // the file gained "buy milk": its lane must show in the replay too
    const line = new RegExp(
      `^replaying "${name.replace(/[()]/g, "\\$&")}" \\(${bundle.exchanges.length} exchanges, 1 notes-file change, \\d+\\.\\d s\\): ${escaped}([0-9a-f]{32})\\n$`,
    );
    expect(stdout).toMatch(line);
    const id = (line.exec(stdout) as RegExpExecArray)[1] as string;
    expect(id).not.toBe(bundle.trace.id);

    const trace = await storedTrace(id, bundle.exchanges.length);
    expect(trace.name).toBe(name);
    expect(trace.source).toBe("imported");
    expect(shape(trace)).toEqual(shape(bundle.trace));
    const list = (await (await fetch(`${recorder.url}/api/traces`)).json()) as { traces: { id: string }[] };
    expect(list.traces.map((t) => t.id)).toContain(id);
    // The notes-file change came along, on the replayed tools/call (the same hop of the copy).
    const replayed = NotesChangesSchema.parse(
      await (await fetch(`${recorder.url}/api/notes/changes?traceId=${id}`)).json(),
    ).changes;
    expect(replayed).toHaveLength(1);
    const [change] = replayed as [NotesChange];
    const original = notes[0] as NotesChange;
    expect({ event: change.event, before: change.before, after: change.after, file: change.file }).toEqual({
      event: original.event,
      before: original.before,
      after: original.after,
      file: original.file,
    });
    expect(change.traceId).toBe(id);
    const seqOf = (t: { exchanges: { id: number; seq: number }[] }, exchangeId: number) =>
      t.exchanges.find((x) => x.id === exchangeId)?.seq;
    expect(change.cause.kind).toBe("tool-call");
    if (change.cause.kind === "tool-call" && original.cause.kind === "tool-call") {
      expect(change.cause.traceId).toBe(id);
      expect(seqOf(trace, change.cause.exchangeId)).toBe(seqOf(bundle.trace, original.cause.exchangeId));
      expect(seqOf(trace, change.cause.exchangeId)).toBeDefined();
    }
    // Moved in time with the trace: as far after its first request as it was then.
    const first = (t: { exchanges: { timings: { start: number } }[] }) =>
      Math.min(...t.exchanges.map((x) => x.timings.start));
    expect(change.at - first(trace)).toBeCloseTo(original.at - first(bundle.trace), 0);
  });

  it("replays a stored trace given its id", async ({ expect }) => {
    const imported = await fetch(`${recorder.url}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: await readFile(BUY_MILK),
    });
    expect(imported.status).toBe(200);
    const { id: storedId } = (await imported.json()) as { id: string };
    const { code, stdout } = await hopscope(["replay", storedId, "--speed", "50"]);
    expect(code).toBe(0);
    const id = /#\/trace\/([0-9a-f]{32})$/m.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(id).not.toBe(storedId);
    const original = TraceSchema.parse(await (await fetch(`${recorder.url}/api/traces/${storedId}`)).json());
    const copy = await storedTrace(id as string, original.exchangeCount);
    expect(shape(copy)).toEqual(shape(original));
    // The stored trace's notes-file change is replayed with it.
    const changes = NotesChangesSchema.parse(
      await (await fetch(`${recorder.url}/api/notes/changes?traceId=${id}`)).json(),
    ).changes;
    expect(changes.map((c) => [c.event, c.cause.kind, c.traceId])).toEqual([["changed", "tool-call", id]]);
  });

  it("says what the recorder refused: an unknown trace id, a broken file", async ({ expect }) => {
    const broken = join(dir, "broken.hopscope.json");
    const doc = JSON.parse(await readFile(BUY_MILK, "utf8")) as { version: unknown };
    doc.version = 99;
    await writeFile(broken, JSON.stringify(doc));
    const [unknown, bad] = await Promise.all([
      hopscope(["replay", "0123456789abcdef0123456789abcdef"]),
      hopscope(["replay", broken]),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/POST \/api\/replay → 404: no trace 0123456789abcdef0123456789abcdef/);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/→ 400: "bundle" is not a valid hopscope trace file:\nversion: this file is version 99/);
    expect(bad.stdout).toBe("");
  });
});
