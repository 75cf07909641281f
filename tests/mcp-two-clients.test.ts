/**
 * Two MCP clients started together on one machine, through the real recorder: an SDK host using our notes
 * server through `hopscope wrap` (stdio) and another SDK client using it over HTTP through the MCP tap, the
 * HTTP session opened right as the stdio session's first messages are recorded. Clients that give different
 * names (clientInfo) stay two traces; one client's two sessions join as one run, said to be joined by its name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import { isStdioExchange } from "@hopscope/shared/trace/stdio-ingest";
import type { TestRecorder } from "./support/recorder";
import { startNotesTapRecorder } from "./support/notes-tap-recorder";
import { wrappedNotesTransport } from "./support/stdio-host";

let notesFile: string;
let recorder: TestRecorder;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ notesFile, recorder, close } = await startNotesTapRecorder("hopscope-two-clients-"));
});

afterAll(() => close());

async function allTraces(): Promise<Trace[]> {
  const list = TraceListSchema.parse(await (await fetch(`${recorder.url}/api/traces?limit=200`)).json());
  return Promise.all(
    list.traces.map(async (t) => TraceSchema.parse(await (await fetch(`${recorder.url}/api/traces/${t.id}`)).json())),
  );
}

/** The new traces, polled until `done` holds for them (every exchange ended), or the last seen in an error. */
async function tracesUntil(before: Set<string>, done: (traces: Trace[]) => boolean): Promise<Trace[]> {
  let seen: Trace[] = [];
  for (let i = 0; i < 300; i++) {
    seen = (await allTraces()).filter((t) => !before.has(t.id));
    const ended = seen.every((t) => t.exchanges.every((e) => e.state !== "pending" && e.state !== "streaming"));
    if (ended && done(seen)) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`the traces never settled: ${JSON.stringify(seen.map((t) => [t.groupedBy, steps(t)]))}`);
}

/** Each exchange as "<method> <mcp method> <tool>", in trace order. */
const steps = (t: Trace) =>
  [...t.exchanges]
    .sort((a, b) => a.seq - b.seq)
    .map((e) =>
      [e.method, e.classification.kind === "mcp" ? [e.classification.method, e.classification.toolName] : []]
        .flat()
        .filter(Boolean)
        .join(" "),
    );

const calledOver = (t: Trace, method: string) => steps(t).includes(`${method} tools/call append`);

/**
 * A host named `stdioName` starts the notes server through `hopscope wrap`; the moment its session is
 * recorded, a client named `httpName` connects over HTTP; each appends a note, then both close.
 */
async function startTogether(stdioName: string, httpName: string): Promise<void> {
  const before = new Set((await allTraces()).map((t) => t.id));
  const host = new Client({ name: stdioName, version: "1.0.0" });
  await host.connect(wrappedNotesTransport(notesFile, recorder.url));
  await tracesUntil(before, (ts) => ts.some((t) => t.exchanges.some(isStdioExchange)));
  const client = new Client({ name: httpName, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${recorder.taps.mcp.url}/mcp`)));
  await Promise.all([
    host.callTool({ name: "append", arguments: { content: `from ${stdioName}` } }),
    client.callTool({ name: "append", arguments: { content: `from ${httpName}` } }),
  ]);
  await Promise.all([host.close(), client.close()]);
}

describe("two MCP clients started together", () => {
  it("an HTTP client and another host's stdio session stay two traces", async () => {
    const before = new Set((await allTraces()).map((t) => t.id));
    await startTogether("learners-host", "sse-host");
    const traces = await tracesUntil(
      before,
      (ts) => ts.some((t) => calledOver(t, "STDIO")) && ts.some((t) => calledOver(t, "POST")),
    );
    const stdio = traces.filter((t) => t.exchanges.some(isStdioExchange));
    const http = traces.filter((t) => t.exchanges.some((e) => !isStdioExchange(e)));
    expect(stdio).toHaveLength(1);
    expect(http).toHaveLength(1);
    expect(stdio[0]!.id).not.toBe(http[0]!.id);
    expect(stdio[0]).toMatchObject({ groupedBy: "session", name: "MCP session: tools/call append" });
    expect(http[0]).toMatchObject({ groupedBy: "session", name: "MCP session: tools/call append" });
  });

  it("one client's stdio and HTTP sessions started together are one run, joined by the client's name", async () => {
    const before = new Set((await allTraces()).map((t) => t.id));
    await startTogether("my-agent", "my-agent");
    const traces = await tracesUntil(before, (ts) => ts.some((t) => calledOver(t, "STDIO") && calledOver(t, "POST")));
    expect(traces).toHaveLength(1);
    expect(traces[0]).toMatchObject({ groupedBy: "mcp-client", name: "MCP session: tools/call append" });
  });
});
