/**
 * `npm run -s hopscope -- ask "Add buy milk to my notes" [--conversation ID] [--json]`
 *
 * Ask the agent host one question and print its reply and every tool call it made. Where it asks:
 * - `HOPSCOPE_AGENT_URL` when set (the host's or a tap's origin; `/agent` is added), and nowhere else;
 * - otherwise the recorder's agent tap, http://127.0.0.1:7073, so the question is recorded like any
 *   other; when nothing answers there (the recorder is not running) the host itself,
 *   http://127.0.0.1:8081, with a note on stderr that this question is not recorded.
 * Exit codes: 0 answered, 1 the host answered with an error or could not be reached, 2 bad usage.
 */
import { parseArgs } from "node:util";
import {
  AgentErrorSchema,
  AgentResponseSchema,
  type AgentRequest,
  type AgentToolCall,
} from "@hopscope/shared/agent/schemas";

export const AGENT_TAP_URL = "http://127.0.0.1:7073";
export const HOST_URL = "http://127.0.0.1:8081";

const USAGE = `usage: npm run -s hopscope -- ask "<message>" [--conversation ID] [--json]

  --conversation ID   continue a conversation (the id an earlier answer printed)
  --json              print the host's JSON answer instead of text

Asks HOPSCOPE_AGENT_URL if set, else the recorder's agent tap (${AGENT_TAP_URL}),
else the host directly (${HOST_URL}).
`;

export interface AskIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: Record<string, string | undefined>;
}

const processIo: AskIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

export async function run(args: string[], io: AskIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { conversation: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (err) {
    io.stderr.write(`ask: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const message = parsed.positionals.join(" ").trim();
  if (message === "") {
    io.stderr.write(`ask: give the question to ask, in quotes\n\n${USAGE}`);
    return 2;
  }
  const body: AgentRequest = { message };
  if (parsed.values.conversation !== undefined) body.conversationId = parsed.values.conversation;

  const configured = io.env.HOPSCOPE_AGENT_URL?.trim();
  const candidates = configured ? [configured] : [AGENT_TAP_URL, HOST_URL];
  const answer = await askAgent(candidates, body);
  if (answer.kind === "unreachable") {
    io.stderr.write(
      `ask: no agent host answered at ${candidates.join(" or ")}: start the stack with \`npm start\` ` +
        `(or the host alone with \`npm run start -w apps/host\`), or set HOPSCOPE_AGENT_URL (${answer.reason})\n`,
    );
    return 1;
  }
  if (!configured && answer.url !== candidates[0]) {
    io.stderr.write(
      `ask: the recorder's agent tap (${AGENT_TAP_URL}) is not running: asked the host at ${answer.url} directly; this question is not recorded\n`,
    );
  }
  return print(answer, parsed.values.json === true, io);
}

export type AskAnswer =
  { kind: "answered"; url: string; status: number; body: unknown } | { kind: "unreachable"; reason: string };

/**
 * POST `{ message, conversationId? }` to `<url>/agent` for the first URL that accepts a connection.
 * Only a refused connection moves on to the next URL: once a server answered, its answer counts.
 */
export async function askAgent(urls: string[], body: AgentRequest): Promise<AskAnswer> {
  let reason = "no URL to ask";
  for (const url of urls) {
    const endpoint = url.replace(/\/+$/, "").replace(/\/agent$/, "") + "/agent";
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (err) {
      reason = innermost(err);
      continue;
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`${endpoint} answered HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 300)}`, {
        cause: err,
      });
    }
    return { kind: "answered", url, status: res.status, body: json };
  }
  return { kind: "unreachable", reason };
}

function print(answer: Extract<AskAnswer, { kind: "answered" }>, json: boolean, io: AskIo): number {
  if (answer.status === 200) {
    const ok = AgentResponseSchema.safeParse(answer.body);
    if (!ok.success) throw new Error(`the host's answer does not look like an /agent answer: ${ok.error.message}`);
    if (json) {
      io.stdout.write(`${JSON.stringify(ok.data, null, 2)}\n`);
      return 0;
    }
    const r = ok.data;
    io.stdout.write(`${r.reply}\n`);
    io.stdout.write(formatToolCalls(r.toolCalls));
    io.stdout.write(`\n${r.steps} model call${r.steps === 1 ? "" : "s"} · conversation ${r.conversationId}\n`);
    io.stdout.write(`continue it with: npm run -s hopscope -- ask --conversation ${r.conversationId} "..."\n`);
    return 0;
  }
  const err = AgentErrorSchema.safeParse(answer.body);
  if (!err.success)
    throw new Error(`the host answered HTTP ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  if (json) {
    io.stdout.write(`${JSON.stringify(err.data, null, 2)}\n`);
    return 1;
  }
  io.stderr.write(`ask: the host answered HTTP ${answer.status}: ${err.data.error}\n`);
  if (err.data.toolCalls && err.data.toolCalls.length > 0) io.stderr.write(formatToolCalls(err.data.toolCalls));
  if (err.data.conversationId) io.stderr.write(`conversation ${err.data.conversationId}\n`);
  return 1;
}

/** One line per call: `  1. append {"content":"buy milk"} → Success` (✗ when the tool or protocol failed). */
export function formatToolCalls(calls: AgentToolCall[]): string {
  if (calls.length === 0) return "\nno tool calls\n";
  const lines = calls.map((c, i) => {
    const output = c.output.length > 200 ? `${c.output.slice(0, 200)}…` : c.output;
    return `  ${i + 1}. ${c.isError ? "✗ " : ""}${c.name} ${JSON.stringify(c.arguments)} → ${JSON.stringify(output)}`;
  });
  return `\ntool calls (${calls.length}):\n${lines.join("\n")}\n`;
}

function innermost(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && e.cause !== undefined) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}
