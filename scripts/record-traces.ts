/**
 * `npm run record-traces`: records the curated traces in traces/ from the real stack — the notes MCP
 * server, the stand-in model, the recorder and the agent host, in-process on port 0 with temp files —
 * and writes traces/README.md, the index. Nothing is written by hand: each file is what the recorder's
 * own export (`GET /api/traces/:id/export?format=hopscope`) returned, after naming the trace through
 * `PATCH /api/traces/:id` so the saved list in the UI tells the lessons apart.
 *
 * The stand-in generates at SIM_TOKENS_PER_SECOND (default 40, about a 7B model on a laptop GPU) with its
 * usual cold load, so the recorded timings make a replay look live. tests/traces.test.ts re-records each
 * scenario (instantly) and checks the curated file still has the same shape.
 *
 * `npm run record-traces -- buy-milk loop` records only those.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Lesson } from "@hopscope/shared/ollama/lessons";
import { parseTraceBundle } from "@hopscope/shared/trace/bundle";
import { hopNumbers } from "@hopscope/shared/trace/hop-numbers";
import type { Trace } from "@hopscope/shared/trace/schemas";
import { AgentResponseSchema, type AgentDialect } from "@hopscope/shared/agent/schemas";
import { DEFAULT_OLLAMA_VERSION, atLeast } from "@hopscope/shared/prompt/version";
import { formatHopLine } from "./launcher/hop-line";
import { defaultConfig as simDefaults } from "../apps/model-sim/src/sim/config";
import { startRecorderStack, type RecorderStack, type RecorderStackOptions } from "../tests/support/recorder-stack";
import { recordMcpSession, type McpClientKind } from "./record-mcp-session";

export const TRACES_DIR = join(import.meta.dirname, "..", "traces");

export interface Scenario {
  /** An MCP client on its own (no agent, no model): the trace is its MCP session. */
  client?: McpClientKind;
  /** File name without `.hopscope.json`. */
  name: string;
  /** The trace's display name (PATCHed before export): what the UI's saved list shows. */
  title: string;
  /** One line for the index: what to look at. */
  shows: string;
  lesson?: Lesson;
  stream?: boolean;
  /** Text the notes file holds before the first question. */
  notes?: string;
  /** Questions asked first in the same conversation (recorded but not saved). */
  before?: string[];
  /** The question whose trace is saved (for a `client` scenario: what the session does). */
  question: string;
  /** AGENT_DIALECT: the API the host speaks to the model (default ollama). */
  dialect?: AgentDialect;
  /** SIM_OLLAMA_VERSION for this scenario; absent = the stand-in's default (today's Ollama). */
  ollamaVersion?: string;
}

const BUY_MILK = "Add buy milk to my notes";

const DIALECT_TITLES: Record<AgentDialect, string> = {
  ollama: "Ollama's /api/chat",
  openai: "OpenAI's /v1/chat/completions",
  anthropic: "Anthropic's /v1/messages",
};
const DIALECT_SHOWS: Record<AgentDialect, string> = {
  ollama: "tool arguments as a JSON object.",
  openai: "tool arguments as a JSON string; Ollama converts the request to the same native chat.",
  anthropic: "tool_use and tool_result content blocks; Ollama (from 0.14) converts them to the same native chat.",
};

/** /v1/messages exists from Ollama 0.14: the dialect scenarios need at least that stand-in version. */
function simVersionFor(scenario: Scenario): string | undefined {
  const version = simDefaults().ollamaVersion;
  if (scenario.ollamaVersion) return scenario.ollamaVersion;
  return scenario.dialect && !atLeast(version, "0.14.0") ? "0.14.0" : undefined;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "buy-milk",
    title: "buy milk (the article's trace, Ollama 0.13.5)",
    shows:
      "The article's Part 4 trace: tools/list, the model asks for `append`, the host calls it, the model answers — 8 hops. " +
      "Recorded as Ollama 0.13.5, as in the article: the tools reach the model as JSON (the others are today's Ollama, where they are a Go struct dump).",
    question: BUY_MILK,
    // The article shows the 0.13.5 family's prompt; keep that one trace in it.
    ollamaVersion: "0.13.5",
  },
  {
    name: "whats-in-my-notes",
    title: "what's in my notes (after buy milk)",
    shows: "The follow-up in the same conversation: the whole history is resent to the model, which calls `read`.",
    before: [BUY_MILK],
    question: "What's in my notes?",
  },
  {
    name: "write-instead-of-append",
    title: "lesson: write instead of append",
    shows: 'The model picks `write` to add a note; the notes file held "call the dentist", which is replaced.',
    lesson: "write-instead-of-append",
    notes: "call the dentist\n",
    question: BUY_MILK,
  },
  {
    name: "missing-argument",
    title: "lesson: missing argument, then retry",
    shows:
      "The model calls `append` with no `content`: a tool error (`isError: true`), the model reads it and retries.",
    lesson: "missing-argument",
    question: BUY_MILK,
  },
  {
    name: "unknown-tool",
    title: "lesson: unknown tool",
    shows:
      "A stale host offers `add_note`, which the MCP server no longer has; the model calls it, the MCP server answers a protocol error (-32602 Unknown tool), the host passes it back as text and the model retries with `append`.",
    lesson: "unknown-tool",
    question: BUY_MILK,
  },
  {
    name: "loop",
    title: "lesson: loop to the step guard",
    shows: "The model keeps calling tools until the host's step guard (AGENT_MAX_STEPS, 5) stops the loop.",
    lesson: "loop",
    question: BUY_MILK,
  },
  {
    name: "inspector-session",
    title: "MCP Inspector: tools/call append",
    shows:
      "The MCP Inspector's CLI (`--method tools/call --tool-name append`) through the HTTP MCP tap, no traceparent: initialize, notifications/initialized, the GET /mcp 405, tools/list and tools/call, grouped as one MCP session.",
    client: "inspector",
    question: "(Inspector CLI) tools/call append content=buy milk",
  },
  {
    name: "stdio-session",
    title: "stdio: a host using the notes server through hopscope wrap",
    shows:
      "The official SDK's stdio client using our notes server over stdio through the stdio tap: initialize, notifications/initialized, tools/list, tools/call append, the server's stderr line and its exit, on the MCP lane marked stdio.",
    client: "stdio",
    question: "(SDK stdio client) tools/list, tools/call append content=buy milk",
  },
  {
    name: "streaming",
    title: "buy milk, streamed",
    shows:
      "The article's question with AGENT_STREAM=true: the model's answers arrive as NDJSON chunks, with their timings.",
    stream: true,
    question: BUY_MILK,
  },
  // The article's Part 1.3 on the wire: the same question in each dialect Ollama serves, recorded at the same
  // Ollama version, so the three-shapes view finds the same turn in all three with real bytes.
  ...(["ollama", "openai", "anthropic"] as const).map((dialect): Scenario => ({
    name: `dialect-${dialect}`,
    title: `three shapes: buy milk via ${DIALECT_TITLES[dialect]}`,
    shows: `The article's question with AGENT_DIALECT=${dialect}: ${DIALECT_SHOWS[dialect]} Open a model hop's "Three shapes" to see it beside the other two.`,
    dialect,
    question: BUY_MILK,
  })),
];

export interface Recorded {
  trace: Trace;
  /** The recorder's hopscope export of the trace, as it answered. */
  file: string;
}

/** Runs one scenario against a fresh real stack and returns the recorder's trace and its export. */
export async function recordScenario(scenario: Scenario, stackOptions: RecorderStackOptions = {}): Promise<Recorded> {
  const version = simVersionFor(scenario);
  const stack = await startRecorderStack({
    ...stackOptions,
    ...(version ? { sim: { ...stackOptions.sim, ollamaVersion: version } } : {}),
    ...(scenario.dialect ? { host: { ...stackOptions.host, dialect: scenario.dialect } } : {}),
    lesson: scenario.lesson ?? null,
    stream: scenario.stream ?? false,
    notes: scenario.notes ?? "",
  });
  try {
    if (scenario.client) return await saveAs(stack, await recordMcpSession(scenario.client, stack), scenario.title);
    let conversationId: string | undefined;
    for (const question of scenario.before ?? []) {
      const answer = await stack.ask(question, conversationId);
      if (answer.status !== 200)
        throw new Error(`${scenario.name}: "${question}" → HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
      conversationId = AgentResponseSchema.parse(answer.body).conversationId;
    }
    // The answer's status is part of what is recorded (the loop lesson ends at the step guard): no check here.
    await stack.ask(scenario.question, conversationId);
    const stored = await stack.waitForTrace(scenario.question);
    // A notes-file change gets its cause a moment after it is seen (apps/proxy/src/notes/cause-now.ts, at
    // most 3 × 150 ms): let it land, so the export carries the file lane.
    await new Promise((resolve) => setTimeout(resolve, 800));
    return await saveAs(stack, stored, scenario.title);
  } finally {
    await stack.close();
  }
}

/** Names the stored trace (PATCH) and returns the recorder's own hopscope export of it. */
async function saveAs(stack: RecorderStack, stored: Trace, title: string): Promise<Recorded> {
  await stack.api(`/api/traces/${stored.id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: title }),
  });
  const file = await stack.api(`/api/traces/${stored.id}/export?format=hopscope`);
  return { trace: parseTraceBundle(JSON.parse(file)).trace, file };
}

/**
 * What must stay the same when a scenario is recorded again: per exchange, in order, the tap, method and
 * path, the status, the MCP method and tool with its outcome, the model's tool-call names (or whether it
 * answered with text); and the causal links. Timings, ids and generated text are left out.
 */
export function traceShape(trace: Trace): string[] {
  const bySeq = new Map(trace.exchanges.map((e) => [e.id, e.seq]));
  const lines = [...trace.exchanges]
    .sort((a, b) => a.seq - b.seq)
    .map((e) => {
      const c = e.classification;
      const head = `${e.tap} ${e.method} ${e.url.split("?")[0]} ${e.status ?? e.state}`;
      switch (c.kind) {
        case "agent":
          return head;
        case "model.chat":
          return `${head} ${c.stream ? "stream" : "json"} ⇒ ${c.toolCalls.length > 0 ? `tool_calls ${c.toolCalls.map((t) => t.name).join(",")}` : c.content ? "text" : "empty"}`;
        case "model.other":
          return `${head} ${c.endpoint}`;
        case "mcp":
          return `${head} ${[c.method ?? "?", c.toolName].filter(Boolean).join(" ")} ⇒ ${c.outcome}`;
        case "other":
          return `${head} other`;
      }
    });
  const links = trace.links.map((l) => `link ${l.kind} ${l.toolName} #${bySeq.get(l.from)} → #${bySeq.get(l.to)}`);
  return [...lines, ...links];
}

/** The hops of a trace as `npm start` prints them: numbered like the timeline, with the recorded times. */
export function hopList(trace: Trace): string[] {
  const numbers = hopNumbers(trace.exchanges);
  return [...trace.exchanges].sort((a, b) => a.seq - b.seq).map((e) => formatHopLine(e, numbers.get(e.id)));
}

function indexMarkdown(recorded: { scenario: Scenario; trace: Trace; pace: number }[]): string {
  const rows = recorded.map(
    ({ scenario: s, trace }) =>
      `| [\`${s.name}.hopscope.json\`](${s.name}.hopscope.json) | ${s.title} | ${s.shows} | ${s.question}${s.before ? ` (after: ${s.before.join("; ")})` : ""} | ${
        [
          s.lesson ? `AGENT_LESSON=${s.lesson}` : "",
          s.stream ? "AGENT_STREAM=true" : "",
          s.dialect ? `AGENT_DIALECT=${s.dialect}` : "",
          s.notes ? `notes file: ${JSON.stringify(s.notes.trim())}` : "",
          s.client === "inspector" ? "@modelcontextprotocol/inspector --cli, through the MCP tap" : "",
          s.client === "stdio" ? "npm run -s hopscope -- wrap -- (notes server over stdio)" : "",
          s.ollamaVersion ? `SIM_OLLAMA_VERSION=${s.ollamaVersion}` : "",
        ]
          .filter(Boolean)
          .join(", ") || "defaults"
      } | ${trace.exchanges.length} |`,
  );
  const hops = recorded.map(
    ({ scenario: s, trace }) => `### ${s.name}\n\n\`\`\`\n${hopList(trace).join("\n")}\n\`\`\``,
  );
  const pace = recorded[0]?.pace ?? 40;
  return `# Curated traces

Saved traces recorded from the real stack (never written by hand), for learners, workshops and talks: they
open and replay with no model at all. Load one from the UI's saved list, or with
\`npm run -s hopscope -- import traces/<file>\`; \`npm run -s hopscope -- replay traces/<file>\` plays it at the
recorded pace.

**How they were recorded:** \`npm run record-traces\` (scripts/record-traces.ts) starts the notes MCP server, the
stand-in model (SIM_TOKENS_PER_SECOND=${pace}, its usual cold load on the first call; imitating Ollama
${DEFAULT_OLLAMA_VERSION}, today's family, unless the settings say SIM_OLLAMA_VERSION), the recorder and the agent host
in-process, asks each question through the agent tap, names the trace (\`PATCH /api/traces/:id\`) and saves the
recorder's own export (\`GET /api/traces/:id/export?format=hopscope\`). Timings are the real ones. Each scenario
runs on a fresh stack with an empty notes file unless said otherwise. The servers listened on free ports (port 0),
so the hosts and ports in the recorded headers are those, not the 7070–7073, 8080, 8081 and 11435 of \`npm start\`. Re-run the command to refresh them;
\`tests/traces.test.ts\` re-records every scenario and fails when a file no longer has the shape the stack produces.

| file | name | what it shows | question | settings | exchanges |
|---|---|---|---|---|---|
${rows.join("\n")}

## The hops of each trace

As \`npm start\` prints them, numbered as the timeline numbers them (a model exchange is two hops: request and
answer; the question and its reply are the first and the last), with the recorded durations.

${hops.join("\n\n")}
`;
}

async function main(args: string[]): Promise<number> {
  const unknown = args.filter((a) => !SCENARIOS.some((s) => s.name === a));
  if (unknown.length > 0) {
    process.stderr.write(
      `record-traces: no scenario ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.name).join(", ")}\n`,
    );
    return 2;
  }
  const pace = Number(process.env.SIM_TOKENS_PER_SECOND || "40");
  if (!Number.isFinite(pace) || pace < 0) {
    process.stderr.write(
      `record-traces: SIM_TOKENS_PER_SECOND must be 0 or more tokens per second, got ${JSON.stringify(process.env.SIM_TOKENS_PER_SECOND)}\n`,
    );
    return 2;
  }
  const chosen = args.length > 0 ? SCENARIOS.filter((s) => args.includes(s.name)) : SCENARIOS;
  const recorded: { scenario: Scenario; trace: Trace; pace: number }[] = [];
  for (const scenario of SCENARIOS) {
    const path = join(TRACES_DIR, `${scenario.name}.hopscope.json`);
    if (chosen.includes(scenario)) {
      // The stand-in's own defaults (cold load included) except the pace: what `npm start` would run.
      const { trace, file } = await recordScenario(scenario, {
        simTokensPerSecond: pace,
        sim: { loadMs: simDefaults().loadMs },
      });
      await writeFile(path, file);
      process.stdout.write(
        `${scenario.name}: ${trace.exchanges.length} exchanges → traces/${scenario.name}.hopscope.json\n`,
      );
      recorded.push({ scenario, trace, pace });
    } else {
      // Not re-recorded this time: the index still lists the file as it is.
      recorded.push({ scenario, trace: parseTraceBundle(JSON.parse(await readFile(path, "utf8"))).trace, pace });
    }
  }
  await writeFile(join(TRACES_DIR, "README.md"), indexMarkdown(recorded));
  process.stdout.write("traces/README.md written\n");
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`record-traces: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
