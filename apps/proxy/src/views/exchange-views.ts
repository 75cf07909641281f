/**
 * `GET /api/exchanges/:id/views`: the rendered prompt (segments, tokens, and a check against a real
 * Ollama's own render), the reconstructed raw model output, and how the prompt extends the previous
 * one of the trace. Derived on request; the expensive parts (verification) are cached per exchange.
 */
import { ChatRequestSchema, ChatResponseSchema, type ChatResponse } from "@hopscope/shared/ollama/schemas";
import { renderChat, type RenderResult } from "@hopscope/shared/prompt/render";
import { verifyAgainstOllama } from "@hopscope/shared/prompt/verify";
import { rawOutputFromChunks, rawOutputFromMessage } from "@hopscope/shared/toolcall/raw-output";
import { loadQwenTokenizer } from "@hopscope/shared/tokens/qwen";
import { isRecord, parseNdjson, pathOf, tryParseJson } from "@hopscope/shared/trace/json-text";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import type { TraceStore } from "../store/trace-store";
import type { ModelUpstreamProbe } from "./upstream-info";
import type { Logger } from "../logger";

export interface ViewsDeps {
  store: TraceStore;
  probe: ModelUpstreamProbe;
  modelUpstream: string;
  logger: Logger;
}

type Verified = NonNullable<NonNullable<ExchangeViews["prompt"]>["verified"]>;

/** Verification asks the real Ollama to render; remember answers (bounded) so a re-open is instant. */
const MAX_VERIFIED = 200;

export class ExchangeViewBuilder {
  private readonly verified = new Map<number, Verified>();

  constructor(private readonly deps: ViewsDeps) {}

  async build(ex: Exchange): Promise<ExchangeViews> {
    if (ex.classification.kind !== "model.chat" || pathOf(ex.url) !== "/api/chat") return {};
    const notes: string[] = [];
    const req = parseRequest(ex);
    if (!req) return { notes: ["the request body is not a complete /api/chat JSON request (truncated or malformed), so no prompt can be rendered"] };
    const info = await this.deps.probe.get();
    const views: ExchangeViews = {};
    const tokenizer = await loadQwenTokenizer().catch((err: unknown) => {
      notes.push(`no token counts: the tokenizer failed to load (${(err as Error).message})`);
      this.deps.logger.error({ err }, "tokenizer failed to load");
      return null;
    });
    const tokens = (text: string) => {
      if (!tokenizer) return null;
      const ids = tokenizer.encode(text);
      return { count: ids.length, ids, pieces: tokenizer.pieces(ids) };
    };
    let rendered: RenderResult | null = null;
    try {
      rendered = renderChat(req, info.version ? { ollamaVersion: info.version } : {});
    } catch (err) {
      notes.push(`no rendered prompt: ${(err as Error).message}`);
      this.deps.logger.error({ err }, "prompt render failed");
    }
    if (rendered) {
      views.prompt = { ...rendered, tokens: tokens(rendered.text), verified: await this.verify(ex, req, info.simulated, notes) };
      const diff = await this.diffOrNote(ex, rendered.text, info.version, notes);
      if (diff) views.diff = diff;
    }
    const raw = rawOutput(ex);
    if (raw !== null) views.rawOutput = { text: raw, reconstructed: true, tokens: tokens(raw) };
    if (notes.length > 0) views.notes = notes;
    return views;
  }

  private async verify(ex: Exchange, req: Record<string, unknown>, simulated: boolean | null, notes: string[]): Promise<Verified | null> {
    // Only a real Ollama can say how it renders; the stand-in renders with our own code.
    if (simulated !== false) return null;
    const hit = this.verified.get(ex.id);
    if (hit) return hit;
    try {
      const result = await verifyAgainstOllama(this.deps.modelUpstream, req);
      this.verified.set(ex.id, result);
      if (this.verified.size > MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value as number);
      return result;
    } catch (err) {
      notes.push(`not verified against ${this.deps.modelUpstream}: ${(err as Error).message}`);
      this.deps.logger.warn({ err: (err as Error).message }, "prompt verification failed");
      return null;
    }
  }

  private async diffOrNote(ex: Exchange, text: string, version: string | null, notes: string[]): Promise<ExchangeViews["diff"] | null> {
    try {
      return await this.diff(ex, text, version);
    } catch (err) {
      notes.push(`no comparison with the previous prompt: ${(err as Error).message}`);
      return null;
    }
  }

  private async diff(ex: Exchange, text: string, version: string | null): Promise<ExchangeViews["diff"] | null> {
    const prev = await this.deps.store.previousChat(ex.traceId, ex.seq);
    const prevReq = prev ? parseRequest(prev) : null;
    if (!prev || !prevReq) return null;
    const prevText = renderChat(prevReq, version ? { ollamaVersion: version } : {}).text;
    let i = 0;
    while (i < prevText.length && i < text.length && prevText.charCodeAt(i) === text.charCodeAt(i)) i++;
    return { previousExchangeId: prev.id, commonPrefixLength: i, previousLength: prevText.length };
  }
}

/**
 * The raw JSON request body when it is a complete chat request. The prompt engine takes the raw body (more
 * faithful than the zod-parsed one, which fills defaults Go would leave empty); zod only checks the shape.
 */
function parseRequest(ex: Exchange): Record<string, unknown> | null {
  if (!ex.requestBody || ex.requestBody.encoding !== "utf8" || ex.requestBody.truncated) return null;
  const raw = tryParseJson(ex.requestBody.data);
  return isRecord(raw) && ChatRequestSchema.safeParse(raw).success ? raw : null;
}

/** The model's raw text rebuilt from the response (one JSON object, or the NDJSON chunks). */
function rawOutput(ex: Exchange): string | null {
  const body = ex.responseBody;
  if (!body || body.encoding !== "utf8" || ex.status !== 200) return null;
  const whole = tryParseJson(body.data);
  if (whole !== undefined) {
    const one = ChatResponseSchema.safeParse(whole);
    return one.success ? rawOutputFromMessage(one.data.message) : null;
  }
  const chunks = parseNdjson(body.data).flatMap((l) => {
    const c = ChatResponseSchema.safeParse(l);
    return c.success ? [c.data] : ([] as ChatResponse[]);
  });
  return chunks.length > 0 ? rawOutputFromChunks(chunks) : null;
}
