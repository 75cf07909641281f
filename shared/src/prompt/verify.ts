/**
 * Ground truth from a real Ollama (≥ 0.11.5): ask it for its own render with `"_debug_render_only": true` and
 * byte-compare with renderChat (renderGenerate for /api/generate) at the server's version, using the model's
 * template and SYSTEM from /api/show (reference §11). By default the native request goes to /api/chat; a
 * `target` sends a client's own dialect request to the dialect's endpoint instead (which endpoints answer the
 * render: dialects/debug-render.ts), so Ollama's conversion is checked along with the render.
 */
import { parseJson } from "../json/parse";
import { z } from "zod";
import { type ChatRequest, ShowResponseSchema, VersionResponseSchema } from "../ollama/schemas";
import { type ChatRequestLike, type GenerateRequestLike, renderChat, renderGenerate } from "./render";
import { atLeast } from "./version";

export interface VerifyResult {
  match: boolean;
  /** Ollama's own render (`_debug_info.rendered_template`). */
  server: string;
  /** renderChat's text at the server's version. */
  ours: string;
  /** UTF-16 index of the first differing character, or null when equal. */
  firstDifference: number | null;
  ollamaVersion: string;
  /** The endpoint that answered the render. */
  endpoint: string;
}

export interface VerifyTarget {
  /** The endpoint to ask: "/api/chat" (default), "/api/generate", or a dialect's own, e.g. "/v1/chat/completions". */
  endpoint?: string;
  /** The body to send it (default: the native request itself); `_debug_render_only` and `stream: false` are added. */
  body?: Record<string, unknown>;
}

const DebugRenderSchema = z.looseObject({
  _debug_info: z.looseObject({ rendered_template: z.string() }),
});

/** Index of the first differing UTF-16 unit (or the shorter length), null when the strings are equal. */
export function firstDifference(a: string, b: string): number | null {
  if (a === b) return null;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

async function getJson(fetchFn: typeof fetch, url: string, init?: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchFn(url, init);
  } catch (e) {
    throw new Error(
      `cannot reach Ollama at ${url}: ${(e as Error).message}. Is it running (ollama serve) and is the URL right?`,
      { cause: e },
    );
  }
  const body = await res.text();
  if (!res.ok) throw new Error(`Ollama answered ${res.status} to ${url}: ${body.slice(0, 500)}`);
  try {
    return parseJson(body);
  } catch (e) {
    throw new Error(`Ollama's answer to ${url} is not JSON: ${body.slice(0, 200)}`, { cause: e });
  }
}

/** `req` is the native request hopscope renders (a generate request when the endpoint is /api/generate). */
export async function verifyAgainstOllama(
  baseUrl: string,
  req: ChatRequest | ChatRequestLike | GenerateRequestLike,
  fetchFn: typeof fetch = fetch,
  target: VerifyTarget = {},
): Promise<VerifyResult> {
  const base = baseUrl.replace(/\/+$/, "");
  const version = VersionResponseSchema.parse(await getJson(fetchFn, `${base}/api/version`)).version;
  if (version !== "0.0.0" && !atLeast(version, "0.11.5")) {
    throw new Error(
      `Ollama ${version} at ${base} is too old: "_debug_render_only" needs Ollama 0.11.5 or newer. Upgrade Ollama to verify renders.`,
    );
  }
  // Render with the model's own template and SYSTEM as the server has them, so any model can be checked.
  const model = (req as { model?: unknown }).model;
  if (typeof model !== "string" || model === "")
    throw new Error('the request needs a "model", for example "qwen2.5:7b"');
  const show = ShowResponseSchema.parse(
    await getJson(fetchFn, `${base}/api/show`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model }),
    }),
  );
  const endpoint = target.endpoint ?? "/api/chat";
  const body = { ...(target.body ?? (req as object)), stream: false, _debug_render_only: true };
  const raw = await getJson(fetchFn, `${base}${endpoint}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const parsed = DebugRenderSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Ollama ${version} did not return _debug_info.rendered_template from ${endpoint}; does this build support "_debug_render_only" there?`,
    );
  }
  const server = parsed.data._debug_info.rendered_template;
  const opts = {
    ollamaVersion: version,
    ...(show.template !== undefined ? { template: show.template } : {}),
    system: show.system ?? "",
  };
  const ours =
    endpoint === "/api/generate"
      ? renderGenerate(req as GenerateRequestLike, opts).text
      : renderChat(req as ChatRequestLike, opts).text;
  const diff = firstDifference(server, ours);
  return { match: diff === null, server, ours, firstDifference: diff, ollamaVersion: version, endpoint };
}
