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
import { AgentResponseSchema } from "@hopscope/shared/agent/schemas";
import { formatHopLine } from "./launcher/hop-line";
import { defaultConfig as simDefaults } from "../apps/model-sim/src/config";
import { startRecorderStack, type RecorderStackOptions } from "../tests/support/recorder-stack";

export const TRACES_DIR = join(import.meta.dirname, "..", "traces");

export interface Scenario {
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
  /** The question whose trace is saved. */
  question: string;
}

const BUY_MILK = "Add buy milk to my notes";

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "buy-milk",
    title: "buy milk (the article's trace)",
    shows: "The article's Part 4 trace: tools/list, the model asks for `append`, the host calls it, the model answers — 8 hops.",
    question: BUY_MILK,
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
    shows: "The model picks `write` to add a note; the notes file held \"call the dentist\", which is replaced.",
    lesson: "write-instead-of-append",
    notes: "call the dentist\n",
    question: BUY_MILK,
  },
  {
    name: "missing-argument",
    title: "lesson: missing argument, then retry",
    shows: "The model calls `append` with no `content`: a tool error (`isError: true`), the model reads it and retries.",
    lesson: "missing-argument",
    question: BUY_MILK,
  },
  {
    name: "unknown-tool",
    title: "lesson: unknown tool",
    shows: "A stale host offers `add_note`, which the MCP server no longer has; the model calls it, the MCP server answers a protocol error (-32602 Unknown tool), the host passes it back as text and the model retries with `append`.",
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
    name: "streaming",
    title: "buy milk, streamed",
    shows: "The article's question with AGENT_STREAM=true: the model's answers arrive as NDJSON chunks, with their timings.",
    stream: true,
    question: BUY_MILK,
  },
];

export interface Recorded {
  trace: Trace;
  /** The recorder's hopscope export of the trace, as it answered. */
  file: string;
}

/** Runs one scenario against a fresh real stack and returns the recorder's trace and its export. */
export async function recordScenario(scenario: Scenario, stackOptions: RecorderStackOptions = {}): Promise<Recorded> {
  const stack = await startRecorderStack({
    ...stackOptions,
    lesson: scenario.lesson ?? null,
    stream: scenario.stream ?? false,
    notes: scenario.notes ?? "",
  });
  try {
    let conversationId: string | undefined;
    for (const question of scenario.before ?? []) {
      const answer = await stack.ask(question, conversationId);
      if (answer.status !== 200) throw new Error(`${scenario.name}: "${question}" → HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
      conversationId = AgentResponseSchema.parse(answer.body).conversationId;
    }
    // The answer's status is part of what is recorded (the loop lesson ends at the step guard): no check here.
    await stack.ask(scenario.question, conversationId);
    const stored = await stack.waitForTrace(scenario.question);
    await stack.api(`/api/traces/${stored.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: scenario.title }),
    });
    const file = await stack.api(`/api/traces/${stored.id}/export?format=hopscope`);
    return { trace: parseTraceBundle(JSON.parse(file)).trace, file };
  } finally {
    await stack.close();
  }
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
      `| [\`${s.name}.hopscope.json\`](${s.name}.hopscope.json) | ${s.title} | ${s.shows} | ${s.question}${s.before ? ` (after: ${s.before.join("; ")})` : ""} | ${[
        s.lesson ? `AGENT_LESSON=${s.lesson}` : "",
        s.stream ? "AGENT_STREAM=true" : "",
        s.notes ? `notes file: ${JSON.stringify(s.notes.trim())}` : "",
      ]
        .filter(Boolean)
        .join(", ") || "defaults"} | ${trace.exchanges.length} |`,
  );
  const hops = recorded.map(({ scenario: s, trace }) => `### ${s.name}\n\n\`\`\`\n${hopList(trace).join("\n")}\n\`\`\``);
  const pace = recorded[0]?.pace ?? 40;
  return `# Curated traces

Saved traces recorded from the real stack (never written by hand), for learners, workshops and talks: they
open and replay with no model at all. Load one from the UI's saved list, or with
\`npm run -s hopscope -- import traces/<file>\`; \`npm run -s hopscope -- replay traces/<file>\` plays it at the
recorded pace.

**How they were recorded:** \`npm run record-traces\` (scripts/record-traces.ts) starts the notes MCP server, the
stand-in model (SIM_TOKENS_PER_SECOND=${pace}, its usual cold load on the first call), the recorder and the agent host
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
    process.stderr.write(`record-traces: no scenario ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.name).join(", ")}\n`);
    return 2;
  }
  const pace = Number(process.env.SIM_TOKENS_PER_SECOND || "40");
  if (!Number.isFinite(pace) || pace < 0) {
    process.stderr.write(`record-traces: SIM_TOKENS_PER_SECOND must be 0 or more tokens per second, got ${JSON.stringify(process.env.SIM_TOKENS_PER_SECOND)}\n`);
    return 2;
  }
  const chosen = args.length > 0 ? SCENARIOS.filter((s) => args.includes(s.name)) : SCENARIOS;
  const recorded: { scenario: Scenario; trace: Trace; pace: number }[] = [];
  for (const scenario of SCENARIOS) {
    const path = join(TRACES_DIR, `${scenario.name}.hopscope.json`);
    if (chosen.includes(scenario)) {
      // The stand-in's own defaults (cold load included) except the pace: what `npm start` would run.
      const { trace, file } = await recordScenario(scenario, { simTokensPerSecond: pace, sim: { loadMs: simDefaults().loadMs } });
      await writeFile(path, file);
      process.stdout.write(`${scenario.name}: ${trace.exchanges.length} exchanges → traces/${scenario.name}.hopscope.json\n`);
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
