/**
 * Agents' recorded model requests (tests/fixtures/agents/), ready to send again through the model tap: the
 * headers as the agent sent them, less those the test's own client sets (framing, Host), the body's bytes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { request, type TestRecorder } from "./helpers";

export interface AgentRequest {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

const FIXTURES = fileURLToPath(new URL("../../../tests/fixtures/agents/", import.meta.url));

/** `name`: the agent and the file, e.g. "claude-code/model-04". */
export function agentRequest(name: string): AgentRequest {
  const f = JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as {
    path: string;
    headers: Record<string, string>;
    requestBody: string;
  };
  const headers = Object.fromEntries(
    Object.entries(f.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k)),
  );
  return { path: f.path, headers, body: Buffer.from(f.requestBody) };
}

/** Sends it through the model tap; the upstream answers 200. */
export async function sendAgentRequest(r: TestRecorder, req: AgentRequest): Promise<void> {
  const res = await request(`${r.taps.model.url}${req.path}`, { method: "POST", headers: req.headers, body: req.body });
  expect(res.status).toBe(200);
}
