/**
 * The model server's own render of a recorded request (`"_debug_render_only": true`, Ollama ≥ 0.11.5), asked by
 * the recorder directly of the upstream: what the model saw when a built-in Go renderer (or llama-server's Jinja
 * chat template) built the prompt, which hopscope's engine cannot reproduce. Cached per exchange, bounded: with a
 * real Ollama each ask schedules the model.
 */
import { z } from "zod";

const DebugRenderSchema = z.looseObject({ _debug_info: z.looseObject({ rendered_template: z.string() }) });

const MAX_RENDERS = 200;
/** A render is a prompt: megabytes at most. A bigger answer is refused, not parsed. */
const MAX_ANSWER_CHARS = 32 * 1024 * 1024;
const TIMEOUT_MS = 120_000;

export class ServerRenderCache {
  private readonly renders = new Map<number, Promise<string>>();

  constructor(private readonly upstream: string) {}

  /**
   * The server's render of `req` at `endpoint` (an /api/chat or /api/generate body, or a client's own request at its
   * dialect's endpoint where that answers the render: dialects/debug-render.ts); rejects with a sentence saying why
   * there is none.
   */
  get(exchangeId: number, req: Record<string, unknown>, endpoint = "/api/chat"): Promise<string> {
    const hit = this.renders.get(exchangeId);
    if (hit) return hit;
    const render = this.ask(req, endpoint);
    this.renders.set(exchangeId, render);
    // A failure is not remembered: the next view asks again (the model may have been pulled meanwhile).
    render.catch(() => this.renders.delete(exchangeId));
    if (this.renders.size > MAX_RENDERS) this.renders.delete(this.renders.keys().next().value as number);
    return render;
  }

  private async ask(req: Record<string, unknown>, endpoint: string): Promise<string> {
    const url = `${this.upstream.replace(/\/+$/, "")}${endpoint}`;
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...req, stream: false, _debug_render_only: true }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status} to _debug_render_only: ${text.slice(0, 300)}`);
    if (text.length > MAX_ANSWER_CHARS)
      throw new Error(`${url} answered ${text.length} characters to _debug_render_only; more than a prompt can be`);
    const parsed = DebugRenderSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new Error(`${url} returned no _debug_info.rendered_template (Ollama 0.11.5 or newer renders on request)`);
    return parsed.data._debug_info.rendered_template;
  }
}
