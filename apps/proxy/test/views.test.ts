/**
 * `/api/exchanges/:id/views` against an upstream that behaves as a real Ollama (no simulated header):
 * the prompt is rendered, counted, and verified against the server's own render (once, then cached).
 */
import { afterEach, describe, expect, it } from "vitest";
import { renderChat } from "@hopscope/shared/prompt/render";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "@hopscope/shared/prompt/qwen25";
import { ExchangeViewsSchema } from "@hopscope/shared/trace/views";
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

describe("exchange views", () => {
  it("renders the prompt with segments and tokens, verifies it against the real server once, and rebuilds the raw output", async () => {
    up = await ollamaLike();
    rec = await startRecorder({ model: up.url });
    await request(`${rec.taps.model.url}/api/chat`, { method: "POST", body: chatBody });
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    const id = trace!.exchanges[0]!.id;
    const views = ExchangeViewsSchema.parse((await getJson(`${rec.url}/api/exchanges/${id}/views`)).body);
    const ours = renderChat(JSON.parse(chatBody) as Record<string, unknown>, { ollamaVersion: "0.13.5" }).text;
    expect(views.prompt?.text).toBe(ours);
    expect(views.prompt?.ollamaVersion).toBe("0.13.5");
    expect(views.prompt?.segments.some((s) => s.kind === "tool")).toBe(true);
    // The tokens start where the text's pieces do: the first at 0, in order, none past the end.
    const starts = views.prompt?.tokens?.starts ?? [];
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
    await getJson(`${rec.url}/api/exchanges/${id}/views`);
    expect(debugRenders()).toBe(1);
  });
});
