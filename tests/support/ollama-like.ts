/**
 * An HTTP server that answers like a real Ollama of one version (no `x-hopscope-simulated` header), for testing
 * verification without one: `/api/version`, `/api/show` (the qwen2.5 template and SYSTEM), and `_debug_render_only`
 * where Ollama answers it (shared/src/dialects/debug-render.ts: /api/chat, /api/generate, /v1/chat/completions).
 * Every other request gets a short answer in its dialect ("Done."). A model named in `rendererModels` is one Ollama
 * renders with a built-in Go renderer (`/api/show` names `RENDERER qwen3-coder`), as Ollama answers for qwen3-coder.
 *
 * It converts OpenAI content parts its own way on /v1/chat/completions (a message's text parts joined with one
 * newline, where Ollama makes one message per part, which the render joins with a blank line), so a check of the
 * client's own request finds a difference that a check of the native request cannot.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { dialectWriter, toNative } from "@hopscope/shared/dialects/convert";
import { dialectOfPath } from "@hopscope/shared/dialects/dialect";
import { renderChat, renderGenerate } from "@hopscope/shared/prompt/render";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "@hopscope/shared/prompt/qwen25";

type Body = Record<string, unknown>;

export interface OllamaLike {
  url: string;
  version: string;
  /** Requests as received: path and body text. */
  received: { url: string; body: string }[];
  close(): Promise<void>;
}

/** This server's own conversion on /v1/chat/completions: text parts joined with "\n" into one message. */
function joinParts(body: Body): Body {
  const messages = (body.messages as Body[]).map((m) =>
    Array.isArray(m.content)
      ? { ...m, content: (m.content as { text?: string }[]).map((p) => p.text ?? "").join("\n") }
      : m,
  );
  return { ...body, messages };
}

function renderOf(path: string, body: Body, version: string): string {
  if (path === "/api/chat") return renderChat(body, { ollamaVersion: version }).text;
  if (path === "/api/generate") return renderGenerate(body, { ollamaVersion: version }).text;
  return renderChat(toNative("openai-chat", joinParts(body), { ollamaVersion: version }).native, {
    ollamaVersion: version,
  }).text;
}

const DEBUG_PATHS = new Set(["/api/chat", "/api/generate", "/v1/chat/completions"]);

export async function startOllamaLike(
  version = "0.32.15",
  rendererModels: readonly string[] = [],
): Promise<OllamaLike> {
  const received: OllamaLike["received"] = [];
  const native = {
    model: "qwen2.5:7b",
    created_at: "2026-01-01T00:00:00Z",
    message: { role: "assistant", content: "Done." },
    response: "Done.",
    done: true,
    done_reason: "stop",
    prompt_eval_count: 40,
    eval_count: 2,
  };
  const answer = (path: string, text: string): string => {
    if (path === "/api/version") return JSON.stringify({ version });
    const body = (text === "" ? {} : JSON.parse(text)) as Body;
    if (path === "/api/show") {
      if (!rendererModels.includes(String(body.model)))
        return JSON.stringify({ template: QWEN25_TEMPLATE, system: QWEN25_SYSTEM });
      return JSON.stringify({
        modelfile: "FROM x\nTEMPLATE {{ .Prompt }}\nRENDERER qwen3-coder\nPARSER qwen3-coder\n",
        template: "{{ .Prompt }}",
        renderer: "qwen3-coder",
        parser: "qwen3-coder",
        details: {
          parent_model: "",
          format: "gguf",
          family: "qwen3moe",
          families: ["qwen3moe"],
          parameter_size: "30.5B",
          quantization_level: "Q4_K_M",
        },
        model_info: {},
      });
    }
    if (body._debug_render_only === true && DEBUG_PATHS.has(path)) {
      const info = { rendered_template: renderOf(path, body, version) };
      return JSON.stringify(
        path === "/v1/chat/completions"
          ? { id: "chatcmpl-1", object: "chat.completion", choices: [], _debug_info: info }
          : { model: body.model, _debug_info: info },
      );
    }
    const d = dialectOfPath(path);
    return JSON.stringify(
      d === null || d === "ollama" || d === "ollama-generate" ? native : dialectWriter(d, body).whole(native),
    );
  };
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString();
      const path = req.url ?? "";
      received.push({ url: path, body: text });
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.end(answer(path, text));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    version,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
