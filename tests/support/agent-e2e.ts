/**
 * One real agent CLI, asked the article's question against the real stack (the stand-in, the notes MCP
 * server, the recorder with its taps, and a second stdio server through `hopscope wrap`), and what every
 * such run must show: the agent exits 0, the notes file gains "buy milk" through the MCP tap, the run is
 * one trace named by the question, nothing healthy is marked failed, and what the model saw holds the
 * question (or says it was cut). The CLI is installed into the agent cache first (once per machine).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { ExchangeSchema, TraceSchema, type ExchangeSummary, type Trace } from "@hopscope/shared/trace/schemas";
import { ExchangeViewsSchema } from "@hopscope/shared/trace/views";
import { ensureAgentClis, type Agent } from "./agent-clis";
import { recipeSimSettings } from "./agent-launch";
import { describeRun, runAgent, type AgentRun } from "./agent-run";
import { startRecorderStack, type RecorderStack, type RecorderStackOptions } from "./recorder-stack";

export const QUESTION = "Add buy milk to my notes";

/** The first install downloads ~1.5 GB of native binaries; later runs find them in the cache. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;
const RUN_TIMEOUT_MS = 240_000;

export interface AgentScenario {
  stack: RecorderStack;
  run: AgentRun;
  /** Every trace the recorder holds after the run (the stack is the run's alone). */
  traces: Trace[];
}

/**
 * Installs the CLI, starts the stack, runs the agent once and waits until the recorder has stored every
 * exchange of the run (in beforeAll); closes the stack in afterAll. Read the fields inside tests. `opts`
 * is read when the stack starts, after the beforeAll hooks registered before this call have run.
 */
export function agentScenario(agent: Agent, opts: () => RecorderStackOptions = () => ({})): AgentScenario {
  const scenario = {} as AgentScenario;
  beforeAll(async () => {
    const clis = await ensureAgentClis();
    const stackOpts = opts();
    scenario.stack = await startRecorderStack({ ...stackOpts, sim: { ...recipeSimSettings(), ...stackOpts.sim } });
    scenario.run = await runAgent(agent, clis, {
      modelTap: scenario.stack.tapUrls.model,
      mcpTap: scenario.stack.tapUrls.mcp,
      recorder: scenario.stack.uiUrl,
      question: QUESTION,
      timeoutMs: RUN_TIMEOUT_MS,
    });
    scenario.traces = await settledTraces(scenario.stack);
  }, INSTALL_TIMEOUT_MS + RUN_TIMEOUT_MS);
  afterAll(async () => {
    await scenario.stack?.close();
  });
  return scenario;
}

/** The assertions every agent's run must pass, as one describe block. */
export function describeAgentRun(agent: Agent, title: string): void {
  describe(title, () => {
    const s = agentScenario(agent);
    const exchanges = () => s.traces.flatMap((t) => t.exchanges);
    const where = () => `${describeRun(s.run)}\nrecorded:\n${describeTraces(s.traces)}`;

    it("exits 0", () => {
      expect(s.run.code, where()).toBe(0);
    });

    if (agent === "codex") {
      it("hands the model's append call to Codex, which refuses its namespaced name, and shows why", async () => {
        await expectCodexRefusesNamespacedCall(s, where());
      });
    } else {
      it("adds buy milk to the notes file through the MCP tap", async () => {
        expect(await s.stack.readNotes(), where()).toMatch(/buy milk/i);
        const calls = exchanges().filter(
          (e) =>
            e.tap === "mcp" &&
            e.method === "POST" &&
            e.classification.kind === "mcp" &&
            e.classification.method === "tools/call",
        );
        expect(calls.length, `no tools/call crossed the MCP tap\n${where()}`).toBeGreaterThan(0);
        const args = calls.map((e) =>
          JSON.stringify(e.classification.kind === "mcp" ? e.classification.arguments : {}),
        );
        expect(args.join(" "), where()).toMatch(/buy milk/i);
      });
    }

    it("is one trace, named by the question", () => {
      expect(
        s.traces.map((t) => t.name),
        where(),
      ).toEqual([QUESTION]);
    });

    it("marks nothing of the healthy run aborted, cut or failed", () => {
      const failed = exchanges().filter(unhealthy);
      expect(failed.map(describeExchange), where()).toEqual([]);
      expect(
        s.traces.map((t) => t.errorCount),
        where(),
      ).toEqual(s.traces.map(() => 0));
    });

    it("shows what the model saw: the question, or that it was cut", async () => {
      const chats = exchanges().filter((e) => e.classification.kind === "model.chat");
      expect(chats.length, `no model request was recorded\n${where()}`).toBeGreaterThan(0);
      for (const e of chats) {
        const views = ExchangeViewsSchema.parse(JSON.parse(await s.stack.api(`/api/exchanges/${e.id}/views`)));
        const said = [...(views.notes ?? []), ...(views.prompt?.notes ?? [])].join(" ");
        const sawQuestion = views.prompt?.text.includes(QUESTION) ?? false;
        const saysCut = /\b(cut|truncat\w*|dropped)\b/i.test(said);
        expect(
          sawQuestion || saysCut,
          `${describeExchange(e)}: the prompt neither holds "${QUESTION}" nor says it was cut (notes: ${said || "none"}; refused: ${JSON.stringify(views.refused)})`,
        ).toBe(true);
      }
    });
  });
}

/**
 * Ollama (0.32.15, the stand-in's default) expands a Responses `namespace` tool into namespace-qualified
 * functions and returns the call flattened, `mcp__notes.append`, with no `namespace` field
 * (openai/responses.go, `convertTools`); Codex routes a call by namespace and name and answers
 * "unsupported call" (ollama/ollama#15921, openai/codex#23186). The trace must show exactly that: the
 * model's call with "buy milk", Codex's refusal in the next request, no tools/call, the file unchanged.
 */
async function expectCodexRefusesNamespacedCall(s: AgentScenario, where: string): Promise<void> {
  const requests = s.traces
    .flatMap((t) => t.exchanges)
    .filter((e) => e.tap === "model" && e.url.startsWith("/v1/responses"));
  const bodies = await Promise.all(
    requests.map(async (e) => ExchangeSchema.parse(JSON.parse(await s.stack.api(`/api/exchanges/${e.id}`)))),
  );
  const answered = bodies.map((b) => b.responseBody?.data ?? "").join("\n");
  expect(answered, `the model's call\n${where}`).toMatch(/"name":"mcp__notes\.append"/);
  expect(answered, where).toMatch(/buy milk/);
  const sent = bodies.map((b) => b.requestBody?.data ?? "").join("\n");
  expect(sent, `Codex's answer to the call\n${where}`).toContain("unsupported call: mcp__notes.append");
  const calls = s.traces
    .flatMap((t) => t.exchanges)
    .filter((e) => e.classification.kind === "mcp" && e.classification.method === "tools/call");
  expect(calls, where).toEqual([]);
  expect(await s.stack.readNotes(), where).not.toMatch(/buy milk/i);
}

/** Failed, aborted (a "cut" stream), never ended, refused by the model server, or an MCP error. */
function unhealthy(e: ExchangeSummary): boolean {
  if (e.state !== "complete" || e.error !== null) return true;
  if (e.tap === "model" && e.status !== null && e.status >= 400) return true;
  return (
    e.classification.kind === "mcp" &&
    (e.classification.outcome === "protocol-error" ||
      e.classification.outcome === "http-error" ||
      e.classification.outcome === "tool-error")
  );
}

function describeExchange(e: ExchangeSummary): string {
  const c = e.classification;
  const what = c.kind === "mcp" ? ` ${c.method ?? ""} ${c.outcome}` : "";
  return `#${e.id} ${e.tap} ${e.method} ${e.url} ${e.status ?? "-"} ${e.state}${what}${e.error ? ` (${e.error})` : ""}`;
}

function describeTraces(traces: Trace[]): string {
  return traces
    .map((t) => `- "${t.name}" (${t.groupedBy}):\n${t.exchanges.map((e) => `    ${describeExchange(e)}`).join("\n")}`)
    .join("\n");
}

const DONE = new Set(["complete", "error", "aborted"]);

/**
 * Every trace once the recorder has stored the run whole: each exchange ended and nothing new for a
 * while (the stdio tap flushes its last events after the server exits; the store writes on an interval).
 */
async function settledTraces(stack: RecorderStack, timeoutMs = 30_000): Promise<Trace[]> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  let stableSince = Date.now();
  for (;;) {
    const list = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces?limit=100")));
    const traces = await Promise.all(
      list.traces.map(async (t) => TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${t.id}`)))),
    );
    const shape = describeTraces(traces);
    const ended = traces.every((t) => t.exchanges.every((e) => DONE.has(e.state)));
    if (shape !== last) {
      last = shape;
      stableSince = Date.now();
    } else if (ended && Date.now() - stableSince >= 1500) {
      return traces;
    }
    if (Date.now() > deadline) return traces;
    await new Promise((r) => setTimeout(r, 250));
  }
}
