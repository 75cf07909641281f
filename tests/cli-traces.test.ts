/**
 * `hopscope import` and `hopscope traces` count a trace as the UI does: its HTTP exchanges (the article's
 * trace is 8 hops and 5 exchanges, and the CLI says 5 exchanges, not 5 "hops"), and an error count in singular or
 * plural. Run as a user runs them, against a real recorder on port 0.
 */
import { exchangesText, plural } from "../scripts/cli/counts";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRecorder, type TestRecorder } from "./support/recorder";
import { runHopscope } from "./support/run-cli";

const TRACES = join(import.meta.dirname, "..", "traces");
let recorder: TestRecorder;
const hopscope = (args: string[]) => runHopscope(args, recorder.url);

describe("hopscope import / traces", () => {
  beforeAll(async () => {
    recorder = await startRecorder({}, { notes: { file: null, explicit: true, maxBytes: 1024 * 1024 } });
  });
  afterAll(() => recorder?.close());

  it(
    "says exchanges, not hops, and does not count the Inspector's GET 405 (no stream offered) as an error",
    { timeout: 60_000 },
    async () => {
      const milk = await hopscope(["import", join(TRACES, "buy-milk.hopscope.json")]);
      expect(milk.code).toBe(0);
      expect(milk.stdout).toMatch(
        /^imported [0-9a-f]+: buy milk \(the article's trace, Ollama 0\.13\.5\) \(5 exchanges\)\n$/,
      );
      const inspector = await hopscope(["import", join(TRACES, "inspector-session.hopscope.json")]);
      expect(inspector.code).toBe(0);
      const list = await hopscope(["traces"]);
      expect(list.code).toBe(0);
      const lines = list.stdout.trim().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines.find((l) => l.includes("buy milk"))).toMatch(/ 5 exchanges {2}buy milk/);
      expect(lines.find((l) => l.includes("MCP Inspector"))).toMatch(
        / 5 exchanges {2}MCP Inspector: tools\/call append$/,
      );
      expect(list.stdout).not.toContain("hops");
    },
  );

  it("lists every export format in the help", async () => {
    const help = await hopscope(["--help"]);
    expect(help.stdout).toMatch(/export +Export a trace \(hopscope, har, otlp, mermaid, html\)/);
  });

  it("writes counts as words: 1 error, 2 errors, 1 exchange", () => {
    expect([plural(1, "error"), plural(2, "error"), exchangesText(1), exchangesText(5)]).toEqual([
      "1 error",
      "2 errors",
      "1 exchange",
      "5 exchanges",
    ]);
  });
});
