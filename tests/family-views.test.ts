/**
 * "What the model saw" per Ollama family, on the real stack (notes MCP server, stand-in, recorder, host): the view
 * renders as the version the stand-in imitated (its x-hopscope-ollama-version header, recorded with the exchange),
 * its token count equals the stand-in's prompt_eval_count, and every family offers the one-click comparison with
 * each other family, with the reasons (ollama/ollama#14601, the struct dump; ollama/ollama#15214, a nested `required`).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SIMULATED_VERSION_HEADER } from "@hopscope/shared/ollama/schemas";
import { renderChat } from "@hopscope/shared/prompt/render";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/version";
import { type Exchange, ExchangeSchema, TraceSchema, TraceSummarySchema } from "@hopscope/shared/trace/schemas";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import { ExchangeViewsSchema } from "@hopscope/shared/trace/views";
import { startRecorderStack, type RecorderStack } from "./support/recorder-stack";

let stack: RecorderStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const QUESTION = "Add buy milk to my notes";

async function firstModelExchange(
  s: RecorderStack,
): Promise<{ ex: Exchange; views: ReturnType<typeof ExchangeViewsSchema.parse> }> {
  await s.ask(QUESTION);
  const trace = await s.waitForTrace(QUESTION);
  const summary = trace.exchanges
    .filter((e) => e.classification.kind === "model.chat")
    .sort((a, b) => a.seq - b.seq)[0]!;
  const ex = ExchangeSchema.parse(JSON.parse(await s.api(`/api/exchanges/${summary.id}`)));
  const views = ExchangeViewsSchema.parse(JSON.parse(await s.api(`/api/exchanges/${summary.id}/views`)));
  return { ex, views };
}

describe("the prompt view follows the family of the version the stand-in imitated", () => {
  it("today's Ollama by default: struct dump, counted as the server counted, compared with 0.13.5's JSON", async () => {
    stack = await startRecorderStack();
    const { ex, views } = await firstModelExchange(stack);
    expect(ex.responseHeaders).toContainEqual([SIMULATED_VERSION_HEADER, DEFAULT_OLLAMA_VERSION]);
    const prompt = views.prompt!;
    expect(prompt.ollamaVersion).toBe(DEFAULT_OLLAMA_VERSION);
    expect(prompt.toolFormat).toBe("struct-dump");
    expect(prompt.text).toContain('{"type": "function", "function": {append ');
    const c = ex.classification;
    expect(c.kind === "model.chat" ? c.promptEvalCount : null).toBe(prompt.tokens!.count);

    // One comparison per other family, oldest first.
    expect(prompt.comparisons!.map((c) => [c.familyId, c.ollamaVersion, c.newer, c.same])).toEqual([
      ["0.13", "0.13.5", false, false],
      ["0.14", "0.14.0", false, true],
    ]);
    const cmp = prompt.comparisons![0]!;
    expect(cmp).toMatchObject({
      toolFormat: "json",
      familyLabel: "Ollama 0.13.5 and earlier",
      comparedWith: "Ollama 0.20+ (today's)",
    });
    // Two changes lie between the families; the notes tools have no nested `required`, so only the struct dump applies.
    expect(cmp.reasons.map((r) => [r.issue, r.applies])).toEqual([
      ["ollama/ollama#14601", true],
      ["ollama/ollama#15214", false],
    ]);
    const request = JSON.parse(ex.requestBody!.data) as Record<string, unknown>;
    expect(cmp.text).toBe(renderChat(request, { ollamaVersion: "0.13.5" }).text);
    expect(cmp.text).toContain('{"type": "function", "function": {"name":"append",');
    expect(
      cmp.segments.some((s) => s.kind === "tool" && cmp.text.slice(s.start, s.end).startsWith('{"name":"append"')),
    ).toBe(true);
    expect(cmp.tokenCount).not.toBe(prompt.tokens!.count);
    expect(prompt.comparisons![1]!.reasons.map((r) => [r.issue, r.applies])).toEqual([["ollama/ollama#15214", false]]);
    // The same prompt is not sent twice: `same`, and no text of its own.
    expect(prompt.comparisons![1]).toMatchObject({ same: true, text: "", segments: [] });
    expect(prompt.comparisons![1]!.tokenCount).toBe(prompt.tokens!.count);
  });

  it("a tool with a nested property's own required: 0.14 differs from today's too, for the #15214 reason", async () => {
    stack = await startRecorderStack();
    const note = {
      type: "object",
      description: "The note",
      required: ["text"],
      properties: {
        text: { type: "string", description: "What to remember" },
        due: { type: "string", description: "When" },
      },
    };
    const body = {
      model: "qwen2.5:7b",
      stream: false,
      messages: [{ role: "user", content: "Remember the dentist on Friday" }],
      tools: [
        {
          type: "function",
          function: {
            name: "add_note",
            description: "Add a note",
            parameters: { type: "object", required: ["note"], properties: { note } },
          },
        },
      ],
    };
    const res = await fetch(`${stack.tapUrls.model}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const views = await (async () => {
      for (let i = 0; i < 100; i++) {
        const list = TraceListSchema.parse(JSON.parse(await stack!.api("/api/traces?limit=5")));
        const id = list.traces[0]
          ? TraceSchema.parse(JSON.parse(await stack!.api(`/api/traces/${list.traces[0].id}`))).exchanges[0]?.id
          : undefined;
        if (id !== undefined)
          return ExchangeViewsSchema.parse(JSON.parse(await stack!.api(`/api/exchanges/${id}/views`)));
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("the /api/chat exchange was not recorded");
    })();
    const byFamily = Object.fromEntries(views.prompt!.comparisons!.map((c) => [c.familyId, c]));
    expect(views.prompt!.text).toContain(',"required":["text"]}');
    expect(byFamily["0.14"]).toMatchObject({ same: false, reasons: [{ issue: "ollama/ollama#15214", applies: true }] });
    expect(byFamily["0.14"]!.text).not.toContain(',"required":["text"]');
    expect(byFamily["0.13"]!.reasons.map((r) => [r.issue, r.applies])).toEqual([
      ["ollama/ollama#14601", true],
      ["ollama/ollama#15214", true],
    ]);
  });

  it("as 0.14.0: compared with the older JSON family and the newer one (the same prompt for these tools)", async () => {
    stack = await startRecorderStack({ sim: { ollamaVersion: "0.14.0" } });
    const { views } = await firstModelExchange(stack);
    expect(views.prompt).toMatchObject({ ollamaVersion: "0.14.0", toolFormat: "struct-dump" });
    const cs = views.prompt!.comparisons!;
    expect(cs.map((c) => [c.familyId, c.ollamaVersion, c.newer, c.same, c.comparedWith])).toEqual([
      ["0.13", "0.13.5", false, false, "Ollama 0.14"],
      ["0.20+", "0.32.15", true, true, "Ollama 0.14"],
    ]);
    expect(cs.map((c) => c.reasons.map((r) => [r.issue, r.applies]))).toEqual([
      [["ollama/ollama#14601", true]],
      [["ollama/ollama#15214", false]],
    ]);
  });

  it("as 0.13.5 (SIM_OLLAMA_VERSION): JSON tools, compared with the two newer families", async () => {
    stack = await startRecorderStack({ sim: { ollamaVersion: "0.13.5" } });
    const { ex, views } = await firstModelExchange(stack);
    expect(ex.responseHeaders).toContainEqual([SIMULATED_VERSION_HEADER, "0.13.5"]);
    expect(views.prompt).toMatchObject({ ollamaVersion: "0.13.5", toolFormat: "json" });
    expect(views.prompt!.comparisons!.map((c) => [c.familyId, c.newer, c.same, c.toolFormat])).toEqual([
      ["0.14", true, false, "struct-dump"],
      ["0.20+", true, false, "struct-dump"],
    ]);
    expect(views.prompt!.comparisons![0]!.reasons.map((r) => r.issue)).toEqual(["ollama/ollama#14601"]);
    const c = ex.classification;
    expect(c.kind === "model.chat" ? c.promptEvalCount : null).toBe(views.prompt!.tokens!.count);
  });
});

describe("a saved trace keeps the family it was recorded in", () => {
  it("a 0.13.5 trace loaded next to today's stand-in still shows 0.13.5's prompt", async () => {
    const old = await startRecorderStack({ sim: { ollamaVersion: "0.13.5" } });
    let file: string;
    try {
      await old.ask(QUESTION);
      const trace = await old.waitForTrace(QUESTION);
      file = await old.api(`/api/traces/${trace.id}/export?format=hopscope`);
    } finally {
      await old.close();
    }
    const dir = await mkdtemp(join(tmpdir(), "hopscope-family-"));
    try {
      await writeFile(join(dir, "old.hopscope.json"), file);
      stack = await startRecorderStack({ tracesDir: dir });
      const loaded = TraceSummarySchema.parse(
        JSON.parse(await stack.api("/api/saved/old.hopscope.json/load", { method: "POST" })),
      );
      const trace = TraceSchema.parse(JSON.parse(await stack.api(`/api/traces/${loaded.id}`)));
      const chat = trace.exchanges.find((e) => e.classification.kind === "model.chat")!;
      const views = ExchangeViewsSchema.parse(JSON.parse(await stack.api(`/api/exchanges/${chat.id}/views`)));
      // The upstream now is today's stand-in; the recorded exchange says it was answered as 0.13.5.
      expect((JSON.parse(await stack.api("/api/config")) as { ollamaVersion: string }).ollamaVersion).toBe(
        DEFAULT_OLLAMA_VERSION,
      );
      expect(views.prompt).toMatchObject({ ollamaVersion: "0.13.5", toolFormat: "json" });
      const c = chat.classification;
      expect(c.kind === "model.chat" ? c.promptEvalCount : null).toBe(views.prompt!.tokens!.count);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
