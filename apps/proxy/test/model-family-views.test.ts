/**
 * The prompt view of a model that is not qwen2.5, against an upstream answering like a real Ollama 0.32.15 (no
 * simulated header): the template comes from its /api/show (asked by the recorder directly: the model tap sees
 * only the client's /api/chat), the engine renders with it, the server's own render agrees, and there are no token
 * ids for a family the project's tokenizer does not cover — only the server's prompt_eval_count.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderChat } from "@hopscope/shared/prompt/render";
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

const LLAMA31 = readFileSync(
  join(import.meta.dirname, "../../../shared/test/prompt/fixtures/templates/llama3.1.gotmpl"),
  "utf8",
);

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
afterEach(() => closeAll(rec, up));

/** api.ModelDetails as Ollama marshals it: every field present. */
const details = (family: string, size: string) => ({
  parent_model: "",
  format: "gguf",
  family,
  families: [family],
  parameter_size: size,
  quantization_level: "Q4_K_M",
});

const chatBody = JSON.stringify({
  model: "llama3.1:8b",
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

/** Ollama 0.32.15 serving llama3.1:8b: its template on /api/show, its own render on _debug_render_only. */
async function llamaOllama(): Promise<Upstream> {
  return startUpstream((req, res, body) => {
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    if (req.url === "/api/version") return res.end('{"version":"0.32.15"}');
    if (req.url === "/api/show")
      return res.end(JSON.stringify({ template: LLAMA31, details: details("llama", "8.0B"), model_info: {} }));
    const parsed = JSON.parse(body.toString()) as Record<string, unknown>;
    if (parsed._debug_render_only) {
      return res.end(
        JSON.stringify({
          _debug_info: {
            rendered_template: renderChat(parsed, { ollamaVersion: "0.32.15", template: LLAMA31, system: "" }).text,
          },
        }),
      );
    }
    res.end(
      JSON.stringify({
        model: "llama3.1:8b",
        created_at: "2026-01-01T00:00:00Z",
        message: { role: "assistant", content: "Done." },
        done: true,
        done_reason: "stop",
        prompt_eval_count: 187,
        eval_count: 3,
      }),
    );
  });
}

describe("a model of another family", () => {
  it("is rendered from its own /api/show template and counted by the server only", async () => {
    up = await llamaOllama();
    rec = await startRecorder({ model: up.url });
    await request(`${rec.taps.model.url}/api/chat`, { method: "POST", body: chatBody });
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    expect(trace!.exchanges.map((e) => e.url)).toEqual(["/api/chat"]);
    const views = ExchangeViewsSchema.parse(
      (await getJson(`${rec.url}/api/exchanges/${trace!.exchanges[0]!.id}/views`)).body,
    );
    const ours = renderChat(JSON.parse(chatBody) as Record<string, unknown>, {
      ollamaVersion: "0.32.15",
      template: LLAMA31,
      system: "",
    }).text;
    expect(views.prompt?.text).toBe(ours);
    expect(ours).toContain("<|start_header_id|>user<|end_header_id|>");
    expect(views.prompt?.source).toEqual({ renderedBy: "engine", template: "api-show", family: "llama" });
    expect(views.prompt?.verified).toMatchObject({ match: true });
    expect(views.prompt?.tokens).toBeNull();
    expect(views.rawOutput?.tokens).toBeNull();
    expect(views.notes?.join("\n")).toContain("llama model and hopscope's tokenizer covers the Qwen families only");
    // /api/show was asked of the upstream directly (the recorder's own requests, not recorded).
    expect(up.received.filter((r) => r.url === "/api/show").length).toBeGreaterThan(0);
  });

  it("a model /api/show names a RENDERER for is shown from the server's render; a failing render says why", async () => {
    let renders = 0;
    up = await startUpstream((req, res, body) => {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      if (req.url === "/api/version") return res.end('{"version":"0.32.15"}');
      if (req.url === "/api/show") {
        return res.end(
          JSON.stringify({
            modelfile: "FROM /x\nTEMPLATE {{ .Prompt }}\nRENDERER gemma4\nPARSER gemma4\n",
            template: "{{ .Prompt }}",
            details: details("gemma4", "8.0B"),
            model_info: {},
          }),
        );
      }
      if ((JSON.parse(body.toString()) as Record<string, unknown>)._debug_render_only) {
        renders++;
        if (renders === 1) return res.writeHead(500).end('{"error":"model runner has unexpectedly stopped"}');
        return res.end(
          JSON.stringify({
            _debug_info: { rendered_template: "<bos><|turn>user\nAdd buy milk to my notes<turn|>\n<|turn>model\n" },
          }),
        );
      }
      res.end(
        JSON.stringify({
          model: "gemma4",
          created_at: "2026-01-01T00:00:00Z",
          message: { role: "assistant", content: "ok" },
          done: true,
          prompt_eval_count: 12,
        }),
      );
    });
    rec = await startRecorder({ model: up.url });
    await request(`${rec.taps.model.url}/api/chat`, {
      method: "POST",
      body: chatBody.replace("llama3.1:8b", "gemma4"),
    });
    const [trace] = await eventually(
      async () => ((await traces(rec!)).length === 1 ? traces(rec!) : null),
      "recording",
    );
    const url = `${rec.url}/api/exchanges/${trace!.exchanges[0]!.id}/views`;
    const first = ExchangeViewsSchema.parse((await getJson(url)).body);
    expect(first.prompt).toBeUndefined();
    expect(first.notes?.join("\n")).toMatch(
      /gemma4 is rendered by Ollama's built-in gemma4 renderer, and the server did not render it on request \(.*500/,
    );
    const second = ExchangeViewsSchema.parse((await getJson(url)).body);
    expect(second.prompt).toMatchObject({
      text: "<bos><|turn>user\nAdd buy milk to my notes<turn|>\n<|turn>model\n",
      segments: [],
      tokens: null,
      verified: null,
    });
    expect(second.prompt?.source).toEqual({
      renderedBy: "server",
      renderer: "gemma4",
      family: "gemma4",
      renderedAt: "/api/chat",
    });
  });
});
