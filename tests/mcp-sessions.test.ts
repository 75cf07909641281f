/**
 * MCP session grouping through the HTTP MCP tap, judged by clients nobody here wrote: the MCP Inspector
 * CLI (a child process, as a learner runs it), the SDK 1.x client (legacy initialize) and the v2 client
 * pinned to 2026-07-28. Each client session is one trace, in order, named "MCP session: tools/call …";
 * a second run of the same client is a trace of its own; traffic with a traceparent keeps its trace.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import type { TestRecorder } from "./support/recorder";
import { startNotesTapRecorder } from "./support/notes-tap-recorder";

const run = promisify(execFile);
const INSPECTOR = path.join(
  import.meta.dirname,
  "..",
  "node_modules",
  "@modelcontextprotocol",
  "inspector",
  "cli",
  "build",
  "cli.js",
);

let notesFile: string;
let recorder: TestRecorder;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ notesFile, recorder, close } = await startNotesTapRecorder("hopscope-mcp-sessions-"));
});

afterAll(() => close());

beforeEach(() => writeFile(notesFile, ""));

async function allTraces(): Promise<Trace[]> {
  const list = TraceListSchema.parse(await (await fetch(`${recorder.url}/api/traces?limit=200`)).json());
  return Promise.all(
    list.traces.map(async (t) => TraceSchema.parse(await (await fetch(`${recorder.url}/api/traces/${t.id}`)).json())),
  );
}

/** The traces that appeared since `before`, once they have `count` exchanges in all, every one complete. */
async function newTraces(before: Set<string>, count: number): Promise<Trace[]> {
  let seen: Trace[] = [];
  for (let i = 0; i < 250; i++) {
    seen = (await allTraces()).filter((t) => !before.has(t.id));
    const exchanges = seen.flatMap((t) => t.exchanges);
    if (exchanges.length >= count && exchanges.every((e) => e.state !== "pending" && e.state !== "streaming"))
      return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
  const all = (await allTraces()).map((t) => ({
    name: t.name,
    steps: steps(t),
    ids: t.exchanges.map((e) => (e.classification.kind === "mcp" ? e.classification.jsonrpcId : null)),
  }));
  throw new Error(
    `expected ${count} new exchanges, saw ${JSON.stringify(seen.map((t) => ({ name: t.name, n: t.exchanges.length })))}; all: ${JSON.stringify(all)}`,
  );
}

const ids = async () => new Set((await allTraces()).map((t) => t.id));

/** Each exchange as "<http method> <mcp method> <tool>" in trace order. */
const steps = (t: Trace) =>
  [...t.exchanges]
    .sort((a, b) => a.seq - b.seq)
    .map((e) =>
      [
        e.method,
        e.classification.kind === "mcp"
          ? [e.classification.method, e.classification.toolName].filter(Boolean).join(" ")
          : `${e.status}`,
      ].join(" "),
    );

function inspector(...args: string[]) {
  // The Inspector's CLI mode talks only to the URL it is given (here the loopback tap); no browser, no proxy.
  return run(process.execPath, [INSPECTOR, "--cli", `${recorder.taps.mcp.url}/mcp`, "--transport", "http", ...args], {
    timeout: 30_000,
  });
}

describe("MCP sessions without traceparent", () => {
  it("the Inspector CLI's tools/call is one trace: initialize, initialized, GET 405, tools/list, tools/call", async () => {
    const before = await ids();
    const { stdout } = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "append",
      "--tool-arg",
      "content=buy milk",
    );
    expect(JSON.parse(stdout)).toMatchObject({ content: [{ type: "text", text: "Success" }], isError: false });
    expect(await readFile(notesFile, "utf8")).toBe("buy milk\n");
    const [trace, ...others] = await newTraces(before, 5);
    expect(others).toEqual([]);
    expect(trace).toMatchObject({ name: "MCP session: tools/call append", groupedBy: "session", exchangeCount: 5 });
    expect(steps(trace!)).toEqual([
      "POST initialize",
      "POST notifications/initialized",
      "GET 405",
      "POST tools/list",
      "POST tools/call append",
    ]);
  });

  it("two Inspector runs in a row are two traces", async () => {
    const before = await ids();
    await inspector("--method", "tools/list");
    await inspector("--method", "tools/call", "--tool-name", "read");
    const runs = await newTraces(before, 9);
    expect(runs.map((t) => t.name).sort()).toEqual(["MCP session: tools/call read", "MCP session: tools/list"]);
  });

  it("an SDK 1.x client session is one trace", async () => {
    const before = await ids();
    const client = new LegacyClient({ name: "legacy-test", version: "1.0.0" });
    await client.connect(new LegacyTransport(new URL(`${recorder.taps.mcp.url}/mcp`)));
    await client.listTools();
    await client.callTool({ name: "append", arguments: { content: "eggs" } });
    await client.callTool({ name: "read", arguments: {} });
    await client.close();
    const [trace, ...others] = await newTraces(before, 6);
    expect(others).toEqual([]);
    expect(trace).toMatchObject({ name: "MCP session: tools/call append", groupedBy: "session" });
    expect(steps(trace!)).toEqual([
      "POST initialize",
      "POST notifications/initialized",
      "GET 405",
      "POST tools/list",
      "POST tools/call append",
      "POST tools/call read",
    ]);
  });

  it("an SDK v2 client pinned to 2026-07-28 is one trace: server/discover, tools/list, tools/call", async () => {
    const before = await ids();
    const client = new Client(
      { name: "modern-test", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${recorder.taps.mcp.url}/mcp`)));
    expect(client.getProtocolEra()).toBe("modern");
    await client.listTools();
    await client.callTool({ name: "append", arguments: { content: "bread" } });
    await client.close();
    const [trace, ...others] = await newTraces(before, 3);
    expect(others).toEqual([]);
    expect(trace).toMatchObject({ name: "MCP session: tools/call append", groupedBy: "session" });
    expect(steps(trace!)).toEqual(["POST server/discover", "POST tools/list", "POST tools/call append"]);
  });

  it("MCP traffic with a traceparent keeps its trace", async () => {
    const before = await ids();
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const client = new LegacyClient({ name: "traced", version: "1.0.0" });
    const transport = new LegacyTransport(new URL(`${recorder.taps.mcp.url}/mcp`), {
      requestInit: { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } },
    });
    await client.connect(transport);
    await client.listTools();
    await client.close();
    const found = await newTraces(before, 4);
    expect(found.map((t) => [t.id, t.groupedBy])).toEqual([[traceId, "traceparent"]]);
  });
});
