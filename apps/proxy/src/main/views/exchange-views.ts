/**
 * `GET /api/exchanges/:id/views`: the rendered prompt (segments, tokens, and a check against a real
 * Ollama's own render), the reconstructed raw model output, and how the prompt extends the previous
 * one of the trace. Derived on request and kept per exchange (bounded); the parts the UI shows only when asked —
 * token ids and offsets, the other families' renders — can be left out and are answered by `tokens()` and
 * `families()`.
 */
import type { Dialect } from "@hopscope/shared/dialects/dialect";
import { isRecord } from "@hopscope/shared/trace/json-text";
import { verifyAgainstOllama } from "@hopscope/shared/prompt/verify";
import { DEFAULT_OLLAMA_VERSION } from "@hopscope/shared/prompt/render";
import { type DebugRenderRoute, debugRenderRoute } from "@hopscope/shared/dialects/debug-render";
import type { QwenVocabulary } from "@hopscope/shared/tokens/qwen";
import { MAY_EXCEED_NOTE } from "@hopscope/shared/prompt/render";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { ExchangeFamilies, ExchangeViews } from "@hopscope/shared/trace/views";
import type { FamiliesInput, TokensJson } from "../tokens/protocol";
import { TokenThread, tooLargeToTokenise } from "../tokens/token-thread-client";
import type { RecordingLink } from "../../link/calls";
import { PromptSources } from "./prompt-source";
import { recordedVersion, type ModelUpstreamProbe } from "./upstream-info";
import { SHOW_TTL_MS } from "./model-show";
import type { Logger } from "../../logger";
import {
  modelOf,
  nativeChatOf,
  nativeOrBody,
  nativeRequestOf,
  rawOutputOf,
  renderExchange,
  requestJsonOf,
  viewDialect,
} from "./dialect-request";
import { refusedAfterRender, refusedBeforeRender } from "./refused";
import { diffOrNote } from "./prompt-diff";
import { exchangeTokensJson, type ViewsAnswer } from "./views-json";

export interface ViewsDeps {
  link: RecordingLink;
  probe: ModelUpstreamProbe;
  modelUpstream: string;
  logger: Logger;
}

type Verified = NonNullable<NonNullable<ExchangeViews["prompt"]>["verified"]>;
type PromptView = NonNullable<ExchangeViews["prompt"]>;

/** Parts of the views the UI asks for only when shown (`?omit=`): token ids and offsets, the other families. */
export interface ViewsOmit {
  tokens?: boolean;
  comparisons?: boolean;
}

/** Verification asks the real Ollama to render; remember answers (bounded) so a re-open is instant. */
const MAX_VERIFIED = 200;
/** Built views kept: a learner goes back and forth between a few hops; an export or a room reads each once. */
const MAX_BUILT = 32;
/** Kept no longer than the model's /api/show answer they were built from: a model pulled again may render otherwise. */
const BUILT_TTL_MS = SHOW_TTL_MS;

/** The full tokens of a built view's prompt and raw output, kept as the tokenizer thread answered. */
interface KeptTokens {
  prompt: TokensJson | null;
  rawOutput: TokensJson | null;
}

/** One exchange's views as built (token counts, no comparisons), its full tokens, and what the comparisons need. */
interface Built {
  views: ExchangeViews;
  tokens: KeptTokens;
  /** False when a part failed for a reason that may pass (the upstream, the tokenizer): built again next time. */
  keep: boolean;
  families: FamiliesInput | null;
  comparisons?: Promise<ExchangeFamilies["comparisons"]>;
}

/** What one build knows once the prompt's source is planned. */
interface BuildContext {
  ex: Exchange;
  d: Dialect;
  version: string | null;
  simulated: boolean | null;
  route: DebugRenderRoute;
  plan: Awaited<ReturnType<PromptSources["plan"]>>;
  opts: { ollamaVersion?: string; template?: string; system?: string };
  notes: string[];
  /** Set when a part failed for a reason that may pass: the build is not kept. */
  transient: boolean;
  tokens: KeptTokens;
}

export class ExchangeViewBuilder {
  private readonly verified = new Map<number, Verified>();
  private readonly built = new Map<number, { key: string; at: number; built: Promise<Built | null> }>();
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

  /**
   * The views of a model exchange (`{}` for any other), without the parts `omit` names; the full tokens as JSON
   * beside them (./views-json.ts gives the answer's text).
   */
  async build(ex: Exchange, omit: ViewsOmit = {}): Promise<ViewsAnswer> {
    const b = await this.entry(ex);
    if (!b) return { views: {}, tokens: {} };
    const { views } = b;
    const tokens = omit.tokens ? {} : { prompt: b.tokens.prompt?.json, rawOutput: b.tokens.rawOutput?.json };
    if (!views.prompt) return { views, tokens };
    const prompt: PromptView = { ...views.prompt };
    if (b.families && omit.comparisons) prompt.comparisonsOnRequest = true;
    else if (b.families) {
      const comparisons = await this.comparisons(b);
      if (comparisons.length > 0) prompt.comparisons = comparisons;
    }
    return { views: { ...views, prompt }, tokens };
  }

  /** The JSON of the token ids and offsets of the prompt and the raw output (what `omit.tokens` leaves out). */
  async tokensJson(ex: Exchange): Promise<string> {
    const kept = (await this.entry(ex))?.tokens;
    return exchangeTokensJson(kept?.prompt ?? null, kept?.rawOutput ?? null);
  }

  /** The request as each other Ollama family renders it (what `omit.comparisons` leaves out). */
  async families(ex: Exchange): Promise<ExchangeFamilies> {
    const b = await this.entry(ex);
    return { comparisons: b?.families ? await this.comparisons(b) : [] };
  }

  /** Rendered and counted on the tokenizer thread, once per built exchange. */
  private comparisons(b: Built): Promise<ExchangeFamilies["comparisons"]> {
    if (!b.families) return Promise.resolve([]);
    b.comparisons ??= this.tokenThread.families(b.families).catch((err: unknown) => {
      this.deps.logger.error({ err }, "family comparisons failed");
      b.comparisons = undefined;
      return [];
    });
    return b.comparisons;
  }

  /**
   * The built views of an exchange, kept (bounded) once it has ended: its bodies no longer change. Kept per
   * upstream version and kind, so a switch from the stand-in to a real Ollama builds again.
   */
  private async entry(ex: Exchange): Promise<Built | null> {
    const info = await this.deps.probe.get();
    if (ex.state === "pending" || ex.state === "streaming") return this.compute(ex, info);
    const key = `${info.version ?? ""} ${info.simulated}`;
    const hit = this.built.get(ex.id);
    if (hit?.key === key && Date.now() - hit.at <= BUILT_TTL_MS) return hit.built;
    const built = this.compute(ex, info);
    const entry = { key, at: Date.now(), built };
    const forget = () => {
      if (this.built.get(ex.id) === entry) this.built.delete(ex.id);
    };
    this.built.delete(ex.id);
    this.built.set(ex.id, entry);
    built.then((b) => b?.keep === false && forget(), forget);
    if (this.built.size > MAX_BUILT) this.built.delete(this.built.keys().next().value as number);
    return built;
  }

  private async compute(
    ex: Exchange,
    info: { version: string | null; simulated: boolean | null },
  ): Promise<Built | null> {
    const d = viewDialect(ex);
    // Chats in every dialect, and the two generate endpoints (classified model.other).
    if (!d || (ex.classification.kind !== "model.chat" && d !== "ollama-generate" && d !== "openai-completions"))
      return null;
    const ctx = await this.context(ex, d, info);
    let outcome: ReturnType<typeof renderExchange> | null = null;
    try {
      outcome = renderExchange(ex, d, ctx.opts);
    } catch (err) {
      ctx.notes.push(`no rendered prompt: ${(err as Error).message}`);
      ctx.transient = true;
      this.deps.logger.error({ err }, "prompt render failed");
    }
    const none = { prompt: null, rawOutput: null };
    if (outcome?.kind === "unreadable")
      return { views: { notes: [outcome.note] }, tokens: none, families: null, keep: true };
    if (outcome?.kind === "refused")
      return { views: refusedBeforeRender(outcome), tokens: none, families: null, keep: true };
    const views: ExchangeViews = {};
    let families: FamiliesInput | null = null;
    if (ctx.plan.kind === "server" && ctx.plan.text !== null)
      views.prompt = await this.serverPrompt(ctx, ctx.plan.text);
    else if (ctx.plan.kind === "engine" && outcome?.kind === "rendered") {
      const engine = await this.enginePrompt(ctx, outcome);
      views.prompt = engine.prompt;
      if (engine.diff) views.diff = engine.diff;
      families = engine.families;
    }
    if (views.prompt) refusedAfterRender(ex, views, ctx.notes);
    const raw = rawOutputOf(ex, d);
    if (raw !== null) {
      ctx.tokens.rawOutput = await this.tokensOf(ctx, raw);
      views.rawOutput = { text: raw, reconstructed: true, tokens: countOnly(ctx.tokens.rawOutput) };
    }
    if (ctx.notes.length > 0) views.notes = ctx.notes;
    return { views, tokens: ctx.tokens, families, keep: !ctx.transient };
  }

  /** The version, the render route and where the prompt comes from (the model's template, or the server's render). */
  private async context(
    ex: Exchange,
    d: Dialect,
    info: { version: string | null; simulated: boolean | null },
  ): Promise<BuildContext> {
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
    // Without the model's /api/show answer or the server's render, the upstream may answer next time.
    const transient = (plan.kind === "server" && plan.text === null) || plan.source.template === "builtin-qwen2.5";
    const tokens = { prompt: null, rawOutput: null };
    return { ex, d, version, simulated: info.simulated, route, plan, opts, notes: [...plan.notes], transient, tokens };
  }

  /** A text's tokens from the tokenizer thread; null (with a note) when there is no vocabulary, it is too large, or it failed. */
  private async tokensOf(ctx: BuildContext, text: string): Promise<TokensJson | null> {
    const vocabulary = ctx.plan.vocabulary;
    if (!vocabulary) return null;
    const refused = tooLargeToTokenise(text);
    if (refused) {
      ctx.notes.push(refused);
      return null;
    }
    return this.tokenThread.tokens(text, choiceOf(ctx, vocabulary)).catch((err: unknown) => this.failed(ctx, err));
  }

  private failed(ctx: BuildContext, err: unknown): null {
    ctx.transient = true;
    ctx.notes.push(`no token counts: the tokenizer failed (${(err as Error).message})`);
    this.deps.logger.error({ err }, "tokenizer failed");
    return null;
  }

  /** The server's own text: no segments (no engine ran), and nothing to verify it against. */
  private async serverPrompt(ctx: BuildContext, text: string): Promise<PromptView> {
    ctx.tokens.prompt = await this.tokensOf(ctx, text);
    return {
      text,
      segments: [],
      ollamaVersion: ctx.version ?? "unknown",
      toolFormat: "json",
      notes: [],
      tokens: countOnly(ctx.tokens.prompt),
      verified: null,
      source: ctx.plan.source,
    };
  }

  /** The engine's render with its tokens, budget, truncation, what the model never saw, and the check against Ollama. */
  private async enginePrompt(
    ctx: BuildContext,
    outcome: Extract<ReturnType<typeof renderExchange>, { kind: "rendered" }>,
  ): Promise<{ prompt: PromptView; diff: ExchangeViews["diff"] | null; families: FamiliesInput | null }> {
    const { ex, d, opts, plan } = ctx;
    const { converted: _converted, droppedKeys: _droppedKeys, ...rendered } = outcome.render;
    const promptTokens = (ctx.tokens.prompt = await this.tokensOf(ctx, rendered.text));
    const diff = await diffOrNote(this.deps.link, ex, rendered.text, opts, ctx);
    const facts =
      plan.vocabulary && promptTokens
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
              choiceOf(ctx, plan.vocabulary),
            )
            .catch((err: unknown) => this.failed(ctx, err))
        : null;
    const prompt: PromptView = {
      ...rendered,
      // With token counts the view says whether the prompt was cut; the render's hedge is then not needed.
      notes: facts ? rendered.notes.filter((n) => !n.startsWith(MAY_EXCEED_NOTE)) : rendered.notes,
      tokens: countOnly(promptTokens),
      verified: await this.verify(ex, d, ctx.route, opts, ctx.simulated, ctx),
      verifyRoute: ctx.route,
      ...(outcome.conversion ? { conversion: outcome.conversion } : {}),
      source: plan.source,
      ...(facts ? { budget: facts.budget } : {}),
      ...(facts?.truncation ? { truncation: facts.truncation } : {}),
      ...(facts && facts.unseen.length > 0 ? { unseen: facts.unseen } : {}),
    };
    const native = nativeChatOf(ex, d, opts);
    const families =
      native && plan.kind === "engine"
        ? {
            req: native,
            rendered: { text: rendered.text, ollamaVersion: rendered.ollamaVersion },
            opts: plan.opts,
            vocabulary: plan.vocabulary,
          }
        : null;
    return { prompt, diff, families };
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
    ctx: Pick<BuildContext, "notes" | "transient">,
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
      ctx.transient = true;
      ctx.notes.push(`not verified against ${this.deps.modelUpstream}: ${(err as Error).message}`);
      this.deps.logger.warn({ err: (err as Error).message }, "prompt verification failed");
      return null;
    }
  }
}

function choiceOf(ctx: BuildContext, vocabulary: QwenVocabulary) {
  return { vocabulary, ...(ctx.version ? { ollamaVersion: ctx.version } : {}) };
}

/** The count alone: the views carry it, the ids and offsets come as JSON beside them. */
function countOnly(t: TokensJson | null): { count: number } | null {
  return t ? { count: t.count } : null;
}
