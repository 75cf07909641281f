/**
 * `GET /api/exchanges/:id/views`: the rendered prompt (segments, tokens, and a check against a real
 * Ollama's own render), the reconstructed raw model output, and how the prompt extends the previous
 * one of the trace. Derived on request; the expensive parts (verification) are cached per exchange.
 */
import type { Dialect } from "@hopscope/shared/dialects/dialect";
import { errorMessageOf } from "@hopscope/shared/dialects/dialect-error";
import { isRecord } from "@hopscope/shared/trace/json-text";
import { verifyAgainstOllama } from "@hopscope/shared/prompt/verify";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/render";
import { type DebugRenderRoute, debugRenderRoute } from "@hopscope/shared/dialects/debug-render";
import type { QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import { MAY_EXCEED_NOTE } from "@hopscope/shared/prompt/render";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import type { TokenizerChoice } from "../tokens/protocol";
import { TokenThread, tooLargeToTokenise } from "../tokens/token-thread-client";
import type { RecordingLink } from "../../link/calls";
import { familyComparisons } from "./family-comparison";
import { PromptSources } from "./prompt-source";
import { recordedVersion, type ModelUpstreamProbe } from "./upstream-info";
import type { Logger } from "../../logger";
import {
  nativeChatOf,
  nativeRequestOf,
  rawOutputOf,
  renderExchange,
  requestJsonOf,
  viewDialect,
} from "./dialect-request";
import { tryParseJson } from "@hopscope/shared/json/parse";

export interface ViewsDeps {
  link: RecordingLink;
  probe: ModelUpstreamProbe;
  modelUpstream: string;
  logger: Logger;
}

type Verified = NonNullable<NonNullable<ExchangeViews["prompt"]>["verified"]>;

/** Verification asks the real Ollama to render; remember answers (bounded) so a re-open is instant. */
const MAX_VERIFIED = 200;

export class ExchangeViewBuilder {
  private readonly verified = new Map<number, Verified>();
  private readonly sources: PromptSources;
  /** Tokenising takes seconds per megabyte: it runs on its own thread, never on the API's. */
  private readonly tokenThread = new TokenThread();

  constructor(private readonly deps: ViewsDeps) {
    this.sources = new PromptSources(deps.modelUpstream, deps.logger);
  }

  /** Stops the tokenizer thread. */
  close(): Promise<void> {
    return this.tokenThread.close();
  }

  async build(ex: Exchange): Promise<ExchangeViews> {
    const d = viewDialect(ex);
    // Chats in every dialect, and the two generate endpoints (classified model.other).
    if (!d || (ex.classification.kind !== "model.chat" && d !== "ollama-generate" && d !== "openai-completions"))
      return {};
    const notes: string[] = [];
    const info = await this.deps.probe.get();
    // The version the exchange was answered as (the stand-in says so), else the upstream's now.
    const version = recordedVersion(ex) ?? info.version;
    const model = modelOf(ex);
    // The model's own template from the upstream's /api/show, or the server's own render for a built-in renderer.
    // Where the server renders this request on request: the client's own request where its endpoint answers that.
    const route = debugRenderRoute(d, version ?? DEFAULT_OLLAMA_VERSION);
    const client = requestJsonOf(ex);
    const ask =
      route.sent === "client" && isRecord(client)
        ? { endpoint: route.endpoint, body: client }
        : { endpoint: route.endpoint };
    const plan = await this.sources.plan(ex.id, model === null ? {} : { ...nativeOrBody(ex, d, version), model }, ask);
    const opts = { ...(version ? { ollamaVersion: version } : {}), ...(plan.kind === "engine" ? plan.opts : {}) };
    const views: ExchangeViews = {};
    notes.push(...plan.notes);
    let outcome: ReturnType<typeof renderExchange> | null = null;
    try {
      outcome = renderExchange(ex, d, opts);
    } catch (err) {
      notes.push(`no rendered prompt: ${(err as Error).message}`);
      this.deps.logger.error({ err }, "prompt render failed");
    }
    if (outcome?.kind === "unreadable") return { notes: [outcome.note] };
    if (outcome?.kind === "refused") {
      return {
        refused: { status: outcome.status, message: outcome.message },
        notes: [
          `Ollama refuses this request before rendering anything (${outcome.status}: ${outcome.message}), so there is no prompt: the model never saw it. The response shows the same error.`,
        ],
      };
    }
    const vocabulary = plan.vocabulary;
    const choice = (vocabulary: QwenVocabulary) => ({ vocabulary, ...(version ? { ollamaVersion: version } : {}) });
    const failed = (err: unknown) => {
      notes.push(`no token counts: the tokenizer failed (${(err as Error).message})`);
      this.deps.logger.error({ err }, "tokenizer failed");
      return null;
    };
    const tokens = async (text: string) => {
      if (!vocabulary) return null;
      const refused = tooLargeToTokenise(text);
      if (!refused) return this.tokenThread.tokens(text, choice(vocabulary)).catch(failed);
      notes.push(refused);
      return null;
    };
    const countTokens = async (text: string, c: TokenizerChoice) =>
      tooLargeToTokenise(text) ? null : this.tokenThread.count(text, c).catch(() => null);
    if (plan.kind === "server" && plan.text !== null) {
      // The server's own text: no segments (no engine ran), and nothing to verify it against.
      const text = plan.text;
      views.prompt = {
        text,
        segments: [],
        ollamaVersion: version ?? "unknown",
        toolFormat: "json",
        notes: [],
        tokens: await tokens(text),
        verified: null,
        source: plan.source,
      };
    } else if (plan.kind === "engine" && outcome?.kind === "rendered") {
      const { converted, droppedKeys, ...rendered } = outcome.render;
      void converted;
      void droppedKeys;
      const native = nativeChatOf(ex, d, opts);
      const promptTokens = await tokens(rendered.text);
      const diff = await this.diffOrNote(ex, rendered.text, opts, notes);
      if (diff) views.diff = diff;
      const facts =
        vocabulary && promptTokens
          ? await this.tokenThread
              .facts(
                {
                  dialect: d,
                  client: requestJsonOf(ex),
                  render: outcome.render,
                  opts,
                  tokenStarts: promptTokens.starts,
                  evaluated: ex.classification.kind === "model.chat" ? ex.classification.promptEvalCount : undefined,
                  sharesPrefix: (diff?.commonPrefixLength ?? 0) > 0,
                  newFrom: diff?.commonPrefixLength,
                },
                choice(vocabulary),
              )
              .catch(failed)
          : null;
      views.prompt = {
        ...rendered,
        // With token counts the view says whether the prompt was cut; the render's hedge is then not needed.
        notes: facts ? rendered.notes.filter((n) => !n.startsWith(MAY_EXCEED_NOTE)) : rendered.notes,
        tokens: promptTokens,
        verified: await this.verify(ex, d, route, opts, info.simulated, notes),
        verifyRoute: route,
        ...(outcome.conversion ? { conversion: outcome.conversion } : {}),
        source: plan.source,
        ...(facts ? { budget: facts.budget } : {}),
        ...(facts?.truncation ? { truncation: facts.truncation } : {}),
        ...(facts && facts.unseen.length > 0 ? { unseen: facts.unseen } : {}),
      };
      const comparisons = native ? await familyComparisons(native, rendered, plan.opts, vocabulary, countTokens) : [];
      if (comparisons.length > 0) views.prompt.comparisons = comparisons;
    }
    if (views.prompt && ex.status !== null && ex.status >= 400) {
      const said = ex.responseBody?.encoding === "utf8" ? errorMessageOf(tryParseJson(ex.responseBody.data)) : null;
      views.refused = { status: ex.status, message: said ?? `the model server answered ${ex.status}` };
      notes.push(
        `The model server answered ${ex.status}${said ? ` (${said})` : ""}: this is the prompt Ollama would have rendered, but the model never saw it.`,
      );
    }
    const raw = rawOutputOf(ex, d);
    if (raw !== null) views.rawOutput = { text: raw, reconstructed: true, tokens: await tokens(raw) };
    if (notes.length > 0) views.notes = notes;
    return views;
  }

  /**
   * Asks the real Ollama for its own render: the client's own request at its dialect's endpoint where that
   * endpoint answers `_debug_render_only` (checking Ollama's conversion too), else the native request.
   */
  private async verify(
    ex: Exchange,
    d: Dialect,
    route: DebugRenderRoute,
    opts: { ollamaVersion?: string },
    simulated: boolean | null,
    notes: string[],
  ): Promise<Verified | null> {
    // Only a real Ollama can say how it renders; the stand-in renders with our own code.
    if (simulated !== false) return null;
    const hit = this.verified.get(ex.id);
    if (hit) return hit;
    const native = nativeRequestOf(ex, d, opts);
    const client = requestJsonOf(ex);
    if (!native || (route.sent === "client" && !isRecord(client))) return null;
    try {
      const target =
        route.sent === "client"
          ? { endpoint: route.endpoint, body: client as Record<string, unknown> }
          : { endpoint: route.endpoint };
      const result = {
        ...(await verifyAgainstOllama(this.deps.modelUpstream, native.native, fetch, target)),
        sent: route.sent,
      };
      this.verified.set(ex.id, result);
      if (this.verified.size > MAX_VERIFIED) this.verified.delete(this.verified.keys().next().value as number);
      return result;
    } catch (err) {
      notes.push(`not verified against ${this.deps.modelUpstream}: ${(err as Error).message}`);
      this.deps.logger.warn({ err: (err as Error).message }, "prompt verification failed");
      return null;
    }
  }

  private async diffOrNote(
    ex: Exchange,
    text: string,
    opts: { ollamaVersion?: string },
    notes: string[],
  ): Promise<ExchangeViews["diff"] | null> {
    try {
      return await this.diff(ex, text, opts);
    } catch (err) {
      notes.push(`no comparison with the previous prompt: ${(err as Error).message}`);
      return null;
    }
  }

  /** The previous chat of the trace, rendered the same way (in its own dialect), against this prompt. */
  private async diff(
    ex: Exchange,
    text: string,
    opts: { ollamaVersion?: string },
  ): Promise<ExchangeViews["diff"] | null> {
    const prev = await this.deps.link.call("previousChat", ex.traceId, ex.seq);
    const d: Dialect | null = prev ? viewDialect(prev) : null;
    if (!prev || !d) return null;
    const outcome = renderExchange(prev, d, opts);
    if (outcome.kind !== "rendered") return null;
    const prevText = outcome.render.text;
    let i = 0;
    while (i < prevText.length && i < text.length && prevText.charCodeAt(i) === text.charCodeAt(i)) i++;
    return { previousExchangeId: prev.id, commonPrefixLength: i, previousLength: prevText.length };
  }
}

/** The model a recorded request names, or null. */
function modelOf(ex: Exchange): string | null {
  const body = ex.requestBody?.encoding === "utf8" ? tryParseJson(ex.requestBody.data) : undefined;
  const model = body && typeof body === "object" ? (body as { model?: unknown }).model : undefined;
  return typeof model === "string" && model !== "" ? model : null;
}

/** The native body Ollama makes of the request (chat or generate: what a native `_debug_render_only` is asked with), or the body. */
function nativeOrBody(ex: Exchange, d: Dialect, version: string | null): Record<string, unknown> {
  const native = nativeRequestOf(ex, d, version ? { ollamaVersion: version } : {})?.native;
  if (native) return native;
  const body = ex.requestBody?.encoding === "utf8" ? tryParseJson(ex.requestBody.data) : undefined;
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
