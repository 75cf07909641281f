/** Test helpers: a real server on port 0 with a temp notes file, and raw POSTs to it. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildModernRequest } from "@hopscope/shared/mcp/request";
import type { JsonRpcId } from "@hopscope/shared/mcp/schemas";
import { start } from "../src/server";

export interface TestServer {
  url: string;
  mcp: string;
  notesFile: string;
  notes(): Promise<string>;
  close(): Promise<void>;
}

export async function startTestServer(
  opts: { maxBodyBytes?: number; maxNotesBytes?: number } = {},
): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-server-test-"));
  const notesFile = join(dir, "data", "db");
  const running = await start({
    port: 0,
    host: "127.0.0.1",
    notesFile,
    maxBodyBytes: opts.maxBodyBytes ?? 1024 * 1024,
    maxNotesBytes: opts.maxNotesBytes ?? 1024 * 1024,
  });
  return {
    url: running.url,
    mcp: `${running.url}/mcp`,
    notesFile,
    notes: () => readFile(notesFile, "utf8"),
    close: async () => {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // The parsed JSON body; tests narrow it with the shared schemas or plain property checks.
  json: any;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

/** A correct modern request, posted. */
export function modern(
  url: string,
  id: JsonRpcId,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Reply> {
  const req = buildModernRequest({ id, method, params, clientInfo: { name: "test", version: "1.0.0" } });
  return post(url, req.body, req.headers);
}

export function callTool(url: string, id: JsonRpcId, name: string, args?: Record<string, unknown>): Promise<Reply> {
  return modern(url, id, "tools/call", args === undefined ? { name } : { name, arguments: args });
}

/** The text of a tool result's first content block. */
export function toolText(reply: Reply): string {
  return reply.json.result.content[0].text;
}
