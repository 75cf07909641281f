/**
 * Verification of every dialect against an upstream answering like a real Ollama 0.32.15 (no simulated header),
 * endpoint by endpoint as Ollama's code does (shared/src/dialects/debug-render.ts): a /v1/chat/completions request is
 * sent as the client wrote it to /v1/chat/completions with `_debug_render_only` (Ollama's conversion is checked
 * too), /api/generate as it is; /v1/messages, /v1/responses and /v1/completions do not answer a render, so their
 * native request goes to /api/chat or /api/generate, and the view says so.
 *
 * The upstream (tests/support/ollama-like.ts) converts OpenAI content parts its own way, so a check of the
 * client's own request finds a difference that a check of the native request cannot.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNative } from "@hopscope/shared/dialects/convert";
import { renderDialect } from "@hopscope/shared/dialects/render-dialect";
import { ExchangeViewsSchema, type ExchangeViews } from "@hopscope/shared/trace/views";
import { startOllamaLike, type OllamaLike } from "../../../tests/support/ollama-like";
import { closeAll, eventually, getJson, request, startRecorder, traces, type TestRecorder } from "./helpers";

const VERSION = "0.32.15";
let rec: TestRecorder;
let up: OllamaLike;

type Body = Record<string, unknown>;

beforeAll(async () => {
  up = await startOllamaLike(VERSION, ["qwen3-coder:30b"]);
  rec = await startRecorder({ model: up.url });
});
afterAll(() => closeAll(rec, up));

const tools = [
  {
    type: "function",
    function: {
      name: "append",
      description: "Append a line",
      parameters: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
    },
  },
];

/** Sends `body` to `path` through the model tap and returns its views, and the debug renders it caused. */
async function viewsOf(
  path: string,
  body: Body,
): Promise<{ views: ExchangeViews; asked: { url: string; body: Body }[] }> {
  const before = up.received.length;
  await request(`${rec.taps.model.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = JSON.stringify(body);
  const ex = await eventually(
    async () =>
      (await traces(rec))
        .flatMap((t) => t.exchanges)
        .find((e) => e.url === path && e.state === "complete" && !seen.has(e.id)),
    `the ${path} exchange`,
  );
  seen.add(ex.id);
  const views = ExchangeViewsSchema.parse((await getJson(`${rec.url}/api/exchanges/${ex.id}/views`)).body);
  const asked = up.received
    .slice(before)
    .filter((r) => r.body.includes("_debug_render_only") && r.body !== text)
    .map((r) => ({ url: r.url, body: JSON.parse(r.body) as Body }));
  return { views, asked };
}
const seen = new Set<number>();

describe("verification in each dialect, against the endpoint that answers the render", () => {
  it("/v1/chat/completions: the client's own request goes to /v1/chat/completions, and its conversion is checked", async () => {
    const body = {
      model: "qwen2.5:7b",
      tools,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Add buy milk" },
            { type: "text", text: "to my notes" },
          ],
        },
      ],
    };
    const { views, asked } = await viewsOf("/v1/chat/completions", body);
    expect(asked).toEqual([
      { url: "/v1/chat/completions", body: { ...body, stream: false, _debug_render_only: true } },
    ]);
    const ours = renderDialect("openai-chat", body, { ollamaVersion: VERSION }).text;
    expect(views.prompt!.text).toBe(ours);
    // Ours: one message per part, which the render joins with a blank line; this server joined the parts with
    // one newline in its conversion: the check of the native request (rendered the same way twice) would have matched.
    expect(ours).toContain("<|im_start|>user\nAdd buy milk\n\nto my notes<|im_end|>");
    expect(views.prompt!.verified).toMatchObject({
      match: false,
      endpoint: "/v1/chat/completions",
      sent: "client",
      ollamaVersion: VERSION,
      ours,
    });
    expect(views.prompt!.verified!.server).toContain("<|im_start|>user\nAdd buy milk\nto my notes<|im_end|>");
    expect(views.prompt!.verified!.firstDifference).toBe(ours.indexOf("Add buy milk") + "Add buy milk\n".length);
    expect(views.prompt!.verifyRoute).toEqual({ endpoint: "/v1/chat/completions", sent: "client" });
  });

  it("/v1/chat/completions with string contents: the server's conversion agrees", async () => {
    const { views, asked } = await viewsOf("/v1/chat/completions", {
      model: "qwen2.5:7b",
      tools,
      messages: [{ role: "user", content: "Add buy milk to my notes" }],
    });
    expect(asked.map((a) => a.url)).toEqual(["/v1/chat/completions"]);
    expect(views.prompt!.verified).toMatchObject({
      match: true,
      firstDifference: null,
      endpoint: "/v1/chat/completions",
      sent: "client",
    });
  });

  it.each([
    [
      "/v1/messages",
      {
        model: "qwen2.5:7b",
        max_tokens: 64,
        tools: [{ name: "append", description: "Append a line", input_schema: tools[0]!.function.parameters }],
        messages: [{ role: "user", content: [{ type: "text", text: "Add buy milk to my notes" }] }],
      },
      "anthropic",
      "/api/chat",
      "Anthropic",
    ],
    [
      "/v1/responses",
      {
        model: "qwen2.5:7b",
        input: [{ role: "user", content: [{ type: "input_text", text: "Add buy milk to my notes" }] }],
      },
      "openai-responses",
      "/api/chat",
      "Responses",
    ],
    [
      "/v1/completions",
      { model: "qwen2.5:7b", prompt: "Why is the sky blue?" },
      "openai-completions",
      "/api/generate",
      "text_completion",
    ],
  ] as const)(
    "%s: the endpoint does not answer a render, so the native request goes to the native endpoint, and the view says why",
    async (path, body, d, endpoint, why) => {
      const { views, asked } = await viewsOf(path, body);
      const nativeBody = toNative(d, body, { ollamaVersion: VERSION }).native;
      expect(asked).toEqual([{ url: endpoint, body: { ...nativeBody, stream: false, _debug_render_only: true } }]);
      expect(views.prompt!.verified).toMatchObject({ match: true, endpoint, sent: "native" });
      expect(views.prompt!.verifyRoute).toMatchObject({ endpoint, sent: "native" });
      expect(views.prompt!.verifyRoute!.note).toContain(`Ollama's ${path}`);
      expect(views.prompt!.verifyRoute!.note).toContain(why);
      expect(views.prompt!.verifyRoute!.note).toContain(
        `the native ${endpoint} request hopscope derived is checked instead`,
      );
    },
  );

  it("/api/generate is asked as it is, and a re-open asks nothing", async () => {
    const body = { model: "qwen2.5:7b", prompt: "Why is the sky blue?", stream: false };
    const { views, asked } = await viewsOf("/api/generate", body);
    expect(asked).toEqual([{ url: "/api/generate", body: { ...body, _debug_render_only: true } }]);
    expect(views.prompt!.verified).toMatchObject({ match: true, endpoint: "/api/generate", sent: "client" });
    const before = up.received.length;
    const list = await traces(rec);
    const id = list.flatMap((t) => t.exchanges).find((e) => e.url === "/api/generate")!.id;
    await getJson(`${rec.url}/api/exchanges/${id}/views`);
    expect(up.received.slice(before).filter((r) => r.body.includes("_debug_render_only"))).toEqual([]);
  });

  it("a model with a built-in renderer: the server's own render of the client's request, from the endpoint that answers it", async () => {
    const openai = { model: "qwen3-coder:30b", messages: [{ role: "user", content: "Add buy milk to my notes" }] };
    const a = await viewsOf("/v1/chat/completions", openai);
    expect(a.asked).toEqual([
      { url: "/v1/chat/completions", body: { ...openai, stream: false, _debug_render_only: true } },
    ]);
    expect(a.views.prompt!.source).toEqual({
      renderedBy: "server",
      renderer: "qwen3-coder",
      family: "qwen3moe",
      renderedAt: "/v1/chat/completions",
    });
    expect(a.views.prompt!.text).toContain("Add buy milk to my notes");
    const anthropic = {
      model: "qwen3-coder:30b",
      max_tokens: 64,
      messages: [{ role: "user", content: "Add buy milk to my notes" }],
    };
    const b = await viewsOf("/v1/messages", anthropic);
    expect(b.asked).toEqual([
      {
        url: "/api/chat",
        body: {
          ...toNative("anthropic", anthropic, { ollamaVersion: VERSION }).native,
          stream: false,
          _debug_render_only: true,
        },
      },
    ]);
    expect(b.views.prompt!.source).toMatchObject({ renderedBy: "server", renderedAt: "/api/chat" });
  });
});
