/**
 * `/api/exchanges/:id/views` against an upstream that behaves as a real Ollama (no simulated header):
 * the prompt is rendered, counted, and verified against the server's own render (once, then cached).
 */
import { afterEach, describe, expect, it } from "vitest";
import { renderChat } from "@hopscope/shared/prompt/render";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "@hopscope/shared/prompt/qwen25";
import {
  ExchangeFamiliesSchema,
  ExchangeTokensSchema,
  ExchangeViewsSchema,
  fullTokens,
  type ExchangeViews,
} from "@hopscope/shared/trace/views";
import {
  closeAll,
  eventually,
  getJson,
  request,
  startRecorder,
  startUpstream,
  traces,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
afterEach(() => closeAll(rec, up));

const chatBody = JSON.stringify({
  model: "qwen2.5:7b",
  stream: false,
  messages: [{ role: "user", content: "Add buy milk to my notes" }],
  tools: [
    {
      type: "function",
      function: {
        name: "append",
        description: "Append a line",
        parameters: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
      },
    },
  ],
});

/** Answers like Ollama 0.13.5 (its debug render differs from ours at the very end, so the check has something to find). */
async function ollamaLike(): Promise<Upstream> {
  return startUpstream((req, res, body) => {
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    if (req.url === "/api/version") return res.end('{"version":"0.13.5"}');
    if (req.url === "/api/show") return res.end(JSON.stringify({ template: QWEN25_TEMPLATE, system: QWEN25_SYSTEM }));
    const parsed = JSON.parse(body.toString()) as Record<string, unknown>;
    if (parsed._debug_render_only)
      return res.end(
        JSON.stringify({
          _debug_info: { rendered_template: `${renderChat(parsed, { ollamaVersion: "0.13.5" }).text}!` },
        }),
      );
    res.end(
      JSON.stringify({
        model: "qwen2.5:7b",
        created_at: "2026-01-01T00:00:00Z",
        message: {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_1", function: { index: 0, name: "append", arguments: { content: "buy milk" } } }],
        },
        done: true,
        done_reason: "stop",
      }),
    );
  });
}

/** The lean views: the same prompt, the counts alone, no comparisons but the word that they can be asked for. */
function expectLean(lean: ExchangeViews, whole: ExchangeViews): void {
  expect(lean.prompt?.text).toBe(whole.prompt?.text);
  expect(lean.prompt?.budget).toEqual(whole.prompt?.budget);
  expect(lean.prompt?.tokens).toEqual({ count: whole.prompt?.tokens?.count });
  expect(lean.rawOutput?.tokens).toEqual({ count: whole.rawOutput?.tokens?.count });
  expect(lean.prompt?.comparisons).toBeUndefined();
  expect(lean.prompt?.comparisonsOnRequest).toBe(true);
  expect(whole.prompt?.comparisonsOnRequest).toBeUndefined();
}

/** Starts the recorder before an Ollama-like upstream, sends one request through the model tap, and waits for its trace. */
async function recordOne(path: string, body: string) {
  up = await ollamaLike();
  rec = await startRecorder({ model: up.url });
  await request(`${rec.taps.model.url}${path}`, { method: "POST", body });
  const [trace] = await eventually(async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null), "recording");
  return trace!;
}

describe("exchange views", () => {
  it("renders the prompt with segments and tokens, verifies it against the real server once, and rebuilds the raw output", async () => {
    const trace = await recordOne("/api/chat", chatBody);
    const id = trace.exchanges[0]!.id;
    const views = ExchangeViewsSchema.parse((await getJson(`${rec!.url}/api/exchanges/${id}/views`)).body);
    const ours = renderChat(JSON.parse(chatBody) as Record<string, unknown>, { ollamaVersion: "0.13.5" }).text;
    expect(views.prompt?.text).toBe(ours);
    expect(views.prompt?.ollamaVersion).toBe("0.13.5");
    expect(views.prompt?.segments.some((s) => s.kind === "tool")).toBe(true);
    // The tokens start where the text's pieces do: the first at 0, in order, none past the end.
    const starts = fullTokens(views.prompt?.tokens)?.starts ?? [];
    expect(starts[0]).toBe(0);
    expect(starts.every((s, i) => i === 0 || s >= starts[i - 1]!)).toBe(true);
    expect(starts.at(-1)!).toBeLessThan(ours.length);
    expect(views.prompt?.budget?.total).toBe(views.prompt?.tokens?.count);
    expect(views.prompt?.verified).toMatchObject({
      match: false,
      ours,
      server: `${ours}!`,
      firstDifference: ours.length,
    });
    expect(views.rawOutput).toEqual({
      text: '<tool_call>\n{"name": "append", "arguments": {"content": "buy milk"}}\n</tool_call>',
      reconstructed: true,
      tokens: expect.objectContaining({ count: expect.any(Number) }),
    });
    expect(views.diff).toBeUndefined();
    const debugRenders = () => up!.received.filter((r) => r.body.includes("_debug_render_only")).length;
    expect(debugRenders()).toBe(1);
    await getJson(`${rec!.url}/api/exchanges/${id}/views`);
    expect(debugRenders()).toBe(1);
  });

  it("leaves token ids and the other families out when asked, and answers them at /tokens and /families", async () => {
    const trace = await recordOne("/api/chat", chatBody);
    const base = `${rec!.url}/api/exchanges/${trace.exchanges[0]!.id}`;
    const lean = ExchangeViewsSchema.parse((await getJson(`${base}/views?omit=tokens,comparisons`)).body);
    const whole = ExchangeViewsSchema.parse((await getJson(`${base}/views`)).body);
    expectLean(lean, whole);
    // What was left out, each at its own address, equal to what the whole views carry.
    const tokens = ExchangeTokensSchema.parse((await getJson(`${base}/tokens`)).body);
    expect(tokens.prompt).toEqual(fullTokens(whole.prompt?.tokens));
    expect(tokens.prompt?.ids.length).toBe(whole.prompt?.tokens?.count);
    expect(tokens.rawOutput).toEqual(fullTokens(whole.rawOutput?.tokens));
    const families = ExchangeFamiliesSchema.parse((await getJson(`${base}/families`)).body);
    expect(families.comparisons.map((c) => c.familyId)).toEqual(["0.14", "0.20+"]);
    expect(families.comparisons).toEqual(whole.prompt?.comparisons);
    // One omission alone.
    const noTokens = ExchangeViewsSchema.parse((await getJson(`${base}/views?omit=tokens`)).body);
    expect(noTokens.prompt?.comparisons).toEqual(whole.prompt?.comparisons);
    expect(fullTokens(noTokens.prompt?.tokens)).toBeNull();
    // A part the views do not have is refused with what is accepted.
    const bad = await getJson(`${base}/views?omit=prompt`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("omit takes tokens and/or comparisons");
    // The server's render was asked once for all of these: the views were built once.
    expect(up!.received.filter((r) => r.body.includes("_debug_render_only")).length).toBe(1);
  });

  it("answers /tokens and /families of an exchange that is not a model chat with nothing, and 404 for a missing one", async () => {
    const trace = await recordOne("/api/show", '{"model":"qwen2.5:7b"}');
    const base = `${rec!.url}/api/exchanges/${trace.exchanges[0]!.id}`;
    expect((await getJson(`${base}/tokens`)).body).toEqual({ prompt: null, rawOutput: null });
    expect((await getJson(`${base}/families`)).body).toEqual({ comparisons: [] });
    expect((await getJson(`${rec!.url}/api/exchanges/999999/tokens`)).status).toBe(404);
    expect((await getJson(`${rec!.url}/api/exchanges/999999/families`)).status).toBe(404);
  });
});
