/**
 * The stdio tap (`hopscope wrap -- <command>`) between real hosts and real stdio servers: the official
 * SDK's stdio client driving the official example server (`@modelcontextprotocol/server-everything`) and
 * our notes server, and a misbehaving server (logs on stdout, half lines, a 10 MB frame, a crash
 * mid-call). What the host gets must be byte for byte what a direct run gives, and the recorder must hold
 * every message, in order, in one trace on the MCP lane marked stdio.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { isStdioExchange } from "@hopscope/shared/trace/stdio-ingest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { ExchangeSchema, TraceSchema, type Trace } from "@hopscope/shared/trace/schemas";
import type { Config } from "../apps/proxy/src/config";
import { startRecorder, type TestRecorder } from "./support/recorder";
import { reservePort } from "./support/recorder-stack";
import { StdioHost, TSX, wrapped, type JsonRpcLine } from "./support/stdio-host";

const EVERYTHING = [
  process.execPath,
  fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url)),
  "stdio",
];
const NOTES = [
  process.execPath,
  "--import",
  TSX,
  fileURLToPath(new URL("../apps/mcp-server/src/stdio-main.ts", import.meta.url)),
];
const FAULTY = [process.execPath, fileURLToPath(new URL("./fixtures/stdio-misbehaving-server.mjs", import.meta.url))];

let dir: string;
let config: Config;
let recorder: TestRecorder;

beforeAll(async () => {
  recorder = await startRecorder();
  ({ dir, config } = recorder);
});

afterAll(() => recorder?.close());

const env = () => ({ HOPSCOPE_URL: recorder.url });

/**
 * The stdio trace whose command contains `marker`, once it has `count` exchanges, all ended. Asked until it
 * is so (the test's timeout bounds it): the tap sends in batches, and a busy machine delays them.
 */
async function stdioTrace(marker: string, count: number, base = recorder.url): Promise<Trace> {
  for (;;) {
    let found: Trace | undefined;
    const list = TraceListSchema.parse(await (await fetch(`${base}/api/traces?limit=100`)).json());
    for (const t of list.traces) {
      const trace = TraceSchema.parse(await (await fetch(`${base}/api/traces/${t.id}`)).json());
      if (trace.exchanges.some((e) => isStdioExchange(e) && e.upstream.includes(marker))) found = trace;
    }
    if (found && found.exchanges.length >= count && found.exchanges.every((e) => e.state !== "pending")) return found;
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Each exchange as "<url> <mcp method or state>", in trace order. */
const steps = (t: Trace) =>
  [...t.exchanges]
    .sort((a, b) => a.seq - b.seq)
    .map(
      (e) =>
        `${e.url} ${e.classification.kind === "mcp" ? [e.classification.method, e.classification.toolName].filter(Boolean).join(" ") : e.state}`,
    );

const init = (id: number): JsonRpcLine => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw-host", version: "1" } },
});
const initialized: JsonRpcLine = { jsonrpc: "2.0", method: "notifications/initialized" };
const call = (id: number, name: string, args: object): JsonRpcLine => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

/** Runs the same conversation directly and through the tap; returns both hosts, ended. */
async function bothWays(
  server: string[],
  messages: JsonRpcLine[],
  before?: () => Promise<void>,
  extraEnv: Record<string, string> = {},
) {
  const runs: StdioHost[] = [];
  for (const command of [server, wrapped(server)]) {
    await before?.();
    const host = new StdioHost(command, { ...env(), ...extraEnv });
    await host.converse(messages);
    await host.close();
    runs.push(host);
  }
  return runs as [StdioHost, StdioHost];
}

describe("hopscope wrap", () => {
  it("puts the official SDK stdio client ↔ server-everything session in one trace, every message in order", async () => {
    const client = new LegacyClient({ name: "sdk-through-wrap", version: "1.0.0" });
    const [program, ...args] = wrapped(EVERYTHING);
    await client.connect(
      new StdioClientTransport({
        command: program as string,
        args,
        env: { ...process.env, ...env() } as Record<string, string>,
        stderr: "pipe",
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("echo");
    expect(await client.callTool({ name: "echo", arguments: { message: "buy milk" } })).toMatchObject({
      content: [{ type: "text", text: "Echo: buy milk" }],
    });
    expect(await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ text: expect.stringContaining("5") }],
    });
    await client.close();
    const trace = await stdioTrace("server-everything", 6);
    expect(trace).toMatchObject({ groupedBy: "session", name: "MCP session: tools/call echo" });
    // What the host sent, in order; the server's own notification (its tool list changed) comes between.
    expect(steps(trace).filter((s) => s.startsWith("stdin"))).toEqual([
      "stdin initialize",
      "stdin notifications/initialized",
      "stdin tools/list",
      "stdin tools/call echo",
      "stdin tools/call get-sum",
    ]);
    expect(steps(trace)).toContain("stdout notifications/tools/list_changed");
    expect(steps(trace).at(-1)).toMatch(/^exit /);
    expect(trace.exchanges.every((e) => isStdioExchange(e))).toBe(true);
    const echo = trace.exchanges.find((e) => e.classification.kind === "mcp" && e.classification.toolName === "echo")!;
    expect(echo).toMatchObject({ state: "complete", classification: { outcome: "ok", resultText: "Echo: buy milk" } });
  });

  it("relays server-everything byte for byte, stdout and stderr, as a direct run", async () => {
    const [direct, tapped] = await bothWays(EVERYTHING, [
      init(0),
      initialized,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      call(2, "echo", { message: "hi" }),
    ]);
    expect(tapped.stdout.length).toBeGreaterThan(1000);
    expect(tapped.stdout.equals(direct.stdout)).toBe(true);
    expect(tapped.stderr).toBe(direct.stderr);
    expect((await tapped.ended).code).toBe((await direct.ended).code);
  });

  it("relays our notes server over stdio byte for byte and records each message in order", async () => {
    const notesFile = path.join(dir, "notes");
    const reset = () => writeFile(notesFile, "");
    const messages = [
      init(1),
      initialized,
      call(2, "append", { content: "buy milk" }),
      call(3, "read", {}),
      call(4, "add_note", {}),
    ];
    const [direct, tapped] = await bothWays(NOTES, messages, reset, { NOTES_FILE: notesFile });
    expect(tapped.stdout.equals(direct.stdout)).toBe(true);
    expect(tapped.stdout.toString()).toContain('"text":"buy milk\\n"');
    const trace = await stdioTrace("stdio-main.ts", 6);
    // The server's startup line on stderr races the host's first message; the rest is in the host's order.
    expect(steps(trace).filter((s) => !s.startsWith("stderr"))).toEqual([
      "stdin initialize",
      "stdin notifications/initialized",
      "stdin tools/call append",
      "stdin tools/call read",
      "stdin tools/call add_note",
      "exit complete",
    ]);
    expect(steps(trace)).toContain("stderr complete");
    const unknown = trace.exchanges.find(
      (e) => e.classification.kind === "mcp" && e.classification.toolName === "add_note",
    );
    expect(unknown?.classification).toMatchObject({ outcome: "protocol-error", errorCode: -32602 });
  });

  it("passes faults through as they are: logs on stdout, half lines unbuffered, 10 MB frames, a crash mid-call", async () => {
    const runs: StdioHost[] = [];
    for (const command of [FAULTY, wrapped(FAULTY)]) {
      const host = new StdioHost(command, env());
      await host.converse([
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "log" },
      ]);
      const before = host.stdout.length;
      host.send({ jsonrpc: "2.0", id: 3, method: "half" });
      // The first half arrives while the host has sent nothing more: nothing waits for the newline.
      await host.waitFor({ bytes: before + 10 });
      expect(host.stdout.subarray(before).toString()).toBe('{"jsonrpc"');
      await host.converse([
        { jsonrpc: "2.0", id: 4, method: "tools/list" },
        { jsonrpc: "2.0", id: 5, method: "big" },
      ]);
      await host.waitFor({ bytes: before + 10 * 1024 * 1024 });
      host.send({ jsonrpc: "2.0", id: 6, method: "crash" });
      runs.push(host);
      expect(await host.ended).toEqual({ code: 3, signal: null });
    }
    const [direct, tapped] = runs as [StdioHost, StdioHost];
    expect(tapped.stdout.length).toBeGreaterThan(10 * 1024 * 1024);
    expect(tapped.stdout.equals(direct.stdout)).toBe(true);
    expect(tapped.stderr).toBe(direct.stderr);

    const trace = await stdioTrace("stdio-misbehaving-server", 9);
    expect(steps(trace)).toEqual([
      "stdin tools/list",
      "stdin log",
      "stdout error",
      "stderr complete",
      "stdin half",
      "stdin tools/list",
      "stdin big",
      "stdin crash",
      "stdout error",
      "exit error",
    ]);
    const byUrl = (i: number) => [...trace.exchanges].sort((a, b) => a.seq - b.seq)[i]!;
    expect(byUrl(2).error).toMatch(/not a JSON-RPC message.*logs belong on stderr/);
    expect(byUrl(7)).toMatchObject({ state: "aborted", error: "the server exited with code 3 before answering" });
    expect(byUrl(8).error).toMatch(/half a line: \d+ bytes on stdout/);
    expect(byUrl(9).error).toBe("the server exited with code 3");
    const big = ExchangeSchema.parse(await (await fetch(`${recorder.url}/api/exchanges/${byUrl(6).id}`)).json());
    expect(big.responseBody).toMatchObject({ truncated: true, storedSize: config.maxBodyBytes });
    expect(big.responseBody!.size).toBeGreaterThan(10 * 1024 * 1024);
  });

  it("keeps a server working when no recorder runs, says so once, and gives a recorder that comes back what it kept and what follows", async () => {
    const port = await reservePort();
    const host = new StdioHost(wrapped(FAULTY), { HOPSCOPE_URL: `http://127.0.0.1:${port}` });
    await host.converse([
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ]);
    await host.waitFor({ stderr: "nothing is being recorded" });
    // Asked while no recorder runs, answered once one does: recorded whole.
    const before = host.stdout.length;
    host.send({ jsonrpc: "2.0", id: 3, method: "half" });
    await host.waitFor({ bytes: before + 10 });
    const late = await startRecorder({}, { uiPort: port });
    try {
      await host.converse([{ jsonrpc: "2.0", id: 4, method: "tools/list" }]);
      await host.waitFor({ stderr: "recording again" });
      host.send({ jsonrpc: "2.0", id: 7, method: "crash" });
      await host.ended;
      expect(host.stderr.match(/nothing is being recorded/g)).toHaveLength(1);
      const trace = await stdioTrace("stdio-misbehaving-server", 6, late.url);
      // What the tap kept while no recorder ran comes first, then what followed: every message, in order.
      expect(steps(trace)).toEqual([
        "stdin tools/list",
        "stdin tools/list",
        "stdin half",
        "stdin tools/list",
        "stdin crash",
        "stdout error",
        "exit error",
      ]);
      expect(
        trace.exchanges.find((e) => e.classification.kind === "mcp" && e.classification.method === "half"),
      ).toMatchObject({ state: "complete", classification: { outcome: "ok" } });
    } finally {
      await late.close();
    }
  });

  it("says why when the command cannot start, and exits 127 as a shell would", async () => {
    const host = new StdioHost(wrapped(["/no/such/server"]), env());
    expect(await host.ended).toEqual({ code: 127, signal: null });
    expect(host.stderr).toMatch(/hopscope wrap: could not start \/no\/such\/server: .*ENOENT/);
  });

  it("passes a signal on and dies of it, as the server does", async () => {
    const runs = [new StdioHost(FAULTY), new StdioHost(wrapped(FAULTY), env())];
    for (const host of runs) {
      await host.converse([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]);
      host.child.kill("SIGTERM");
    }
    expect(await runs[1]!.ended).toEqual(await runs[0]!.ended);
    expect((await runs[0]!.ended).signal).toBe("SIGTERM");
  });
});
