/**
 * The curated traces in traces/ cannot rot: every file parses with the trace-file parser, was recorded
 * from the stack (the stand-in answered, nothing imported), is listed in traces/README.md, and
 * re-recording its scenario on the real stack today (recorder in the loop, stand-in at full speed) gives
 * the same shape: the same exchanges in the same order, the same MCP methods, tool calls and outcomes, and
 * the same links. When this fails after an intended change, run `npm run record-traces`.
 */
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMULATED_VERSION_HEADER } from "@hopscope/shared/ollama/schemas";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/version";
import { SavedListSchema } from "@hopscope/shared/trace/api";
import { parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { TraceSchema, TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import { SCENARIOS, TRACES_DIR, recordScenario, traceShape } from "../scripts/record-traces";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

async function curated(name: string): Promise<TraceBundle> {
  return parseTraceBundle(JSON.parse(await readFile(join(TRACES_DIR, `${name}.hopscope.json`), "utf8")));
}

describe("traces/ holds exactly the curated set, indexed", () => {
  it("has one file per scenario and nothing else, each listed in traces/README.md", async () => {
    const files = (await readdir(TRACES_DIR)).filter((f) => f.endsWith(".hopscope.json")).sort();
    expect(files).toEqual(SCENARIOS.map((s) => `${s.name}.hopscope.json`).sort());
    const index = await readFile(join(TRACES_DIR, "README.md"), "utf8");
    for (const s of SCENARIOS) {
      expect(index, s.name).toContain(`(${s.name}.hopscope.json)`);
      expect(index, s.name).toContain(s.title);
    }
  });
});

describe("the recorder opens every curated trace from traces/", () => {
  let stack: RecorderStack;
  beforeAll(async () => {
    // Loading only reads TRACES_DIR; nothing is written to the repository's traces/.
    stack = await startRecorderStack({ tracesDir: TRACES_DIR });
  });
  afterAll(() => stack?.close());

  it("lists each file with its name, and loads it with every exchange and link", async () => {
    const saved = SavedListSchema.parse(JSON.parse(await stack.api("/api/saved")));
    expect(saved.files.map((f) => [f.file, f.name]).sort()).toEqual(
      SCENARIOS.map((s) => [`${s.name}.hopscope.json`, s.title]).sort(),
    );
    for (const s of SCENARIOS) {
      const bundle = await curated(s.name);
      const loaded = TraceSummarySchema.parse(
        JSON.parse(await stack.api(`/api/saved/${s.name}.hopscope.json/load`, { method: "POST" })),
      );
      expect(loaded.exchangeCount, s.name).toBe(bundle.exchanges.length);
      const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${loaded.id}`)));
      expect(traceShape(trace), s.name).toEqual(traceShape(bundle.trace));
    }
  });
});

describe.each(SCENARIOS.map((s) => [s.name, s] as const))("traces/%s.hopscope.json", (_name, scenario) => {
  it("parses, was recorded live from the stand-in, and has the shape a fresh recording has", async () => {
    const bundle = await curated(scenario.name);
    expect(bundle.generator.name).toBe("hopscope");
    expect(bundle.trace.name).toBe(scenario.title);
    expect(bundle.trace.source).toBe("live");
    if (scenario.client) {
      // An MCP client on its own: no model was involved, and the trace is its MCP session.
      expect(bundle.trace.groupedBy).toBe("session");
      expect(bundle.trace.exchanges.every((e) => e.tap === "mcp")).toBe(true);
    } else {
      expect(bundle.trace.simulated).toBe(true);
      const agent = bundle.trace.exchanges.find((e) => e.tap === "agent");
      expect(agent?.classification).toMatchObject({ kind: "agent", message: scenario.question });
    }
    if (scenario.stream)
      expect(bundle.exchanges.filter((e) => e.tap === "model").every((e) => e.chunks.length > 1)).toBe(true);

    const fresh = await recordScenario(scenario, { simTokensPerSecond: 0 });
    expect(traceShape(bundle.trace)).toEqual(traceShape(fresh.trace));
    // The article's trace is recorded as Ollama 0.13.5, the others as today's default: the stand-in says so on each answer.
    const answeredAs = parseTraceBundle(JSON.parse(fresh.file))
      .exchanges.filter((e) => e.tap === "model")
      .map((e) => e.responseHeaders.find(([n]) => n === SIMULATED_VERSION_HEADER)?.[1]);
    // (MCP-only sessions, the Inspector's and the wrapped stdio one, have no model answer to say it.)
    const expected = answeredAs.length === 0 ? [] : [scenario.ollamaVersion ?? DEFAULT_OLLAMA_VERSION];
    expect(new Set(answeredAs)).toEqual(new Set(expected));
    // The export the script saves is itself readable by the same parser.
    expect(traceShape(parseTraceBundle(JSON.parse(fresh.file)).trace)).toEqual(traceShape(fresh.trace));
  });
});
