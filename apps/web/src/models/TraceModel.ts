/**
 * The open trace: its exchange summaries (kept live from the feed), links, the hops computed from
 * them, the selected hop, and lazily loaded details (whole exchanges with bodies, derived views).
 *
 * WebSocket/HTTP race: opening a trace fetches it over HTTP while frames keep arriving. Frames for the
 * trace are applied at once; when the HTTP answer lands it is merged, keeping for each exchange the
 * copy that is further along (complete beats streaming beats pending), so neither source can roll the
 * other back. Details are cached per exchange and dropped when the exchange completes (a copy fetched
 * mid-stream is incomplete).
 */
import { batch, computed, createModel, effect, signal, type Signal } from "@preact/signals";
import {
  ExchangeFamiliesSchema,
  ExchangeTokensSchema,
  ExchangeViewsSchema,
  type ExchangeFamilies,
  type ExchangeTokens,
  type ExchangeViews,
} from "@hopscope/shared/trace/views";
import {
  ExchangeSchema,
  TraceSchema,
  type Exchange,
  type ExchangeState,
  type ExchangeSummary,
  type Link,
  type ServerFrame,
  type TraceSummary,
} from "@hopscope/shared/trace/schemas";
import { ApiError, SessionEndedError, getJson } from "../api/http";
import { numberHops, type Hop } from "./hops";
import { isSideRole, requestRoles } from "./request-lines";

import { afterFailure, mayRetry, type Failure } from "./retry-after";
export type Loadable<T> =
  | { status: "loading"; failed?: Failure }
  | { status: "ready"; value: T }
  | ({ status: "error"; message: string } & Partial<Failure>);

/** Streams kept in memory for live display; older ones are dropped (their bodies stay on the server). */
const MAX_LIVE_STREAMS = 50;

const RANK: Record<ExchangeState, number> = { pending: 0, streaming: 1, complete: 2, error: 2, aborted: 2 };

function newer(a: ExchangeSummary | undefined, b: ExchangeSummary): boolean {
  if (!a) return true;
  return RANK[b.state] >= RANK[a.state];
}

function without<T>(map: ReadonlyMap<number, T>, id: number): ReadonlyMap<number, T> {
  if (!map.has(id)) return map;
  const next = new Map(map);
  next.delete(id);
  return next;
}

export const TraceModel = createModel(() => {
  const state = openTraceState();
  const { open, close, onStored } = traceOpening(state);
  const { exchanges, followNextTrace, liveChunks, summary, links, traceId } = state;

  function applyFrame(frame: ServerFrame): void {
    switch (frame.type) {
      case "snapshot":
        for (const x of frame.inFlight) if (x.traceId === traceId.value) putExchange(state, x);
        return;
      case "exchange.started":
      case "exchange.completed":
        if (frame.type === "exchange.started" && followNextTrace.value && frame.exchange.traceId !== traceId.value) {
          followNextTrace.value = false;
          void open(frame.exchange.traceId, 1, true);
        }
        if (frame.exchange.traceId === traceId.value) putExchange(state, frame.exchange);
        return;
      case "exchange.chunk":
        if (frame.text !== undefined) liveChunks.value = withChunk(liveChunks.value, frame.exchangeId, frame.text);
        firstByte(frame.exchangeId, frame.traceId, frame.chunk.t);
        return;
      case "trace.updated":
        if (frame.trace.id === traceId.value) {
          summary.value = frame.trace;
          links.value = frame.links;
          onStored();
        }
        return;
      case "trace.deleted":
        if (frame.traceId === traceId.value) close();
        return;
      case "error":
        console.error(`[hopscope] recorder reported: ${frame.message}`);
        return;
    }
  }

  /**
   * The feed has no "response started" frame: the first chunk is the first byte, so the response arrow can
   * be drawn (in progress) from here.
   */
  function firstByte(exchangeId: number, chunkTraceId: string, t: number): void {
    const x = chunkTraceId === traceId.value ? exchanges.value.get(exchangeId) : undefined;
    if (x && x.state === "pending") {
      putExchange(state, {
        ...x,
        state: "streaming",
        timings: { ...x.timings, firstByte: x.timings.firstByte ?? x.timings.start + t },
      });
    }
  }

  const details = exchangeDetails(state);

  // The selected hop's details load as soon as it is selected (and again once its exchange completes).
  effect(() => {
    const hop = state.selected.value;
    if (!hop) return;
    const x = exchanges.value.get(hop.exchangeId);
    if (!x) return;
    void details.loadExchange(x.id);
    // Every model exchange may have views: chats in any dialect, and /api/generate and /v1/completions prompts.
    if (x.tap === "model") {
      void details.loadViews(x.id);
      const prev = hop.kind === "model-request" ? details.previousModelRequest(x.id) : undefined;
      if (prev) void details.loadExchange(prev.id);
    }
  });

  return { ...state, open, close, applyFrame, ...details };
});
export type TraceModel = InstanceType<typeof TraceModel>;

type OpenTrace = ReturnType<typeof openTraceState>;

/** The open trace's signals and what is computed from them. */
function openTraceState() {
  const traceId = signal<string | null>(null);
  const summary = signal<TraceSummary | null>(null);
  const exchanges = signal<ReadonlyMap<number, ExchangeSummary>>(new Map());
  const links = signal<Link[]>([]);
  /** "waiting": opened from a live frame before the recorder stored the trace; it loads on `trace.updated`. */
  const loadState = signal<"idle" | "loading" | "waiting" | "ready" | "missing">("idle");
  const loadError = signal<string | null>(null);
  const selectedHop = signal<number | null>(null);
  const full = signal<ReadonlyMap<number, Loadable<Exchange>>>(new Map());
  const views = signal<ReadonlyMap<number, Loadable<ExchangeViews>>>(new Map());
  /** What the views leave out until shown: token ids and offsets ("Show tokens"), the other families' renders. */
  const tokens = signal<ReadonlyMap<number, Loadable<ExchangeTokens>>>(new Map());
  const families = signal<ReadonlyMap<number, Loadable<ExchangeFamilies>>>(new Map());
  /** Chunk texts of streams seen live, by exchange id, across traces (bounded). */
  const liveChunks = signal<ReadonlyMap<number, readonly string[]>>(new Map());
  /** Set by the ask box: open the next trace that starts. */
  const followNextTrace = signal(false);

  const list = computed(() => [...exchanges.value.values()].sort((a, b) => a.seq - b.seq || a.id - b.id));
  const hops = computed<Hop[]>(() => numberHops(list.value));
  const selected = computed(() => hops.value.find((h) => h.number === selectedHop.value) ?? null);
  /** Each model request's line: main, a retry, a side request (shared/src/trace/run-lines.ts). */
  const roles = computed(() => requestRoles(list.value));
  /** The hops of the run's main line: all but a side request's (follow-live stays on these). */
  const mainHops = computed(() => hops.value.filter((h) => !isSideRole(roles.value.get(h.exchangeId))));
  /** The main line's first model request (a side request, such as a title's, may come before it). */
  const firstModelRequestId = computed(
    () =>
      list.value.find(
        (x) => x.classification.kind === "model.chat" && (roles.value.get(x.id)?.role ?? "main") === "main",
      )?.id,
  );

  return {
    traceId,
    summary,
    exchanges,
    links,
    loadState,
    loadError,
    selectedHop,
    full,
    views,
    tokens,
    families,
    liveChunks,
    followNextTrace,
    list,
    hops,
    selected,
    roles,
    mainHops,
    firstModelRequestId,
  };
}

/** Merges a summary in, keeping the copy further along; details fetched before it completed are dropped. */
function putExchange(state: OpenTrace, x: ExchangeSummary): void {
  const { exchanges, full } = state;
  const cur = exchanges.value.get(x.id);
  if (!newer(cur, x)) return;
  const next = new Map(exchanges.value);
  next.set(x.id, x);
  exchanges.value = next;
  if (cur && cur.state !== x.state && RANK[x.state] === 2) {
    full.value = without(full.value, x.id);
    forgetViews(state, x.id);
  }
}

/** An exchange's views and the parts loaded on request, dropped together. */
function forgetViews({ views, tokens, families }: OpenTrace, id: number): void {
  views.value = without(views.value, id);
  tokens.value = without(tokens.value, id);
  families.value = without(families.value, id);
}

/** Opening a trace over HTTP while its frames keep arriving (see the race above), and closing it. */
function traceOpening(state: OpenTrace) {
  const { traceId, summary, exchanges, links, loadState, loadError, selectedHop, full, views, tokens, families } =
    state;
  /** A `trace.updated` for the open trace arrived while it was being fetched: fetch again if that one fails. */
  let refetchWanted = false;

  async function open(id: string, hop: number | null = null, live = false): Promise<void> {
    // One change, seen whole: another trace and its hop arrive together (follow-live tells "you opened
    // another trace" from "you picked hop 1" by it).
    const waiting = batch(() => {
      if (traceId.value !== id) {
        traceId.value = id;
        summary.value = null;
        exchanges.value = new Map();
        links.value = [];
        full.value = new Map();
        views.value = tokens.value = families.value = new Map();
      }
      selectedHop.value = hop;
      loadError.value = null;
      if (live && loadState.value !== "waiting") {
        // Opened from the feed's first frame of a new trace: the recorder stores the trace on its next
        // flush and then announces `trace.updated`; fetch then (before it, the trace is a 404).
        loadState.value = "waiting";
        return true;
      }
      loadState.value = "loading";
      return false;
    });
    if (waiting) return;
    refetchWanted = false;
    try {
      const trace = await getJson(`/api/traces/${encodeURIComponent(id)}`, TraceSchema);
      if (traceId.value !== id) return; // another trace was opened meanwhile
      const { exchanges: xs, links: ls, ...rest } = trace;
      summary.value = rest;
      links.value = ls;
      const next = new Map(exchanges.value);
      for (const x of xs) if (newer(next.get(x.id), x)) next.set(x.id, x);
      exchanges.value = next;
      loadState.value = "ready";
    } catch (e) {
      if (traceId.value !== id) return;
      if (live && e instanceof ApiError && e.status === 404) {
        // The feed announces an exchange before the recorder's next flush writes its trace: expected.
        // Try again when the next `trace.updated` comes — or now, if one came while we were asking.
        loadState.value = "waiting";
        if (refetchWanted) void open(id, selectedHop.value, true);
        return;
      }
      loadState.value = "missing";
      loadError.value = e instanceof Error ? e.message : String(e);
      if (!(e instanceof SessionEndedError)) console.error("[hopscope] could not open trace", e);
    }
  }

  /** The recorder stored (or changed) the open trace: fetch it now if it was waiting for that. */
  function onStored(): void {
    const id = traceId.value;
    if (id === null) return;
    if (loadState.value === "waiting") void open(id, selectedHop.value, true);
    else if (loadState.value === "loading") refetchWanted = true;
  }

  function close(): void {
    traceId.value = null;
    summary.value = null;
    exchanges.value = new Map();
    links.value = [];
    selectedHop.value = null;
    loadState.value = "idle";
  }

  return { open, close, onStored };
}

/** Whole exchanges (with bodies) and their derived views, loaded on demand and cached per exchange. */
function exchangeDetails(state: OpenTrace) {
  const { exchanges, full, views, tokens, families, list } = state;

  function loadExchange(id: number): Promise<Exchange | undefined> {
    // A copy fetched while the exchange was in flight is incomplete; whichever source told us it has
    // ended since (a frame or the trace's HTTP answer), fetch it again.
    const cur = full.value.get(id);
    const x = exchanges.value.get(id);
    if (cur?.status === "ready" && x && cur.value.state !== x.state) {
      full.value = without(full.value, id);
      forgetViews(state, id);
    }
    return loadInto(full, id, () => getJson(`/api/exchanges/${id}`, ExchangeSchema));
  }

  /** The views without what is shown only on request (loadTokens, loadFamilies): the prompt comes on screen sooner. */
  function loadViews(id: number): Promise<ExchangeViews | undefined> {
    const path = `/api/exchanges/${id}/views?omit=tokens,comparisons`;
    return loadInto(views, id, () => getJson(path, ExchangeViewsSchema));
  }

  function loadTokens(id: number): Promise<ExchangeTokens | undefined> {
    return loadInto(tokens, id, () => getJson(`/api/exchanges/${id}/tokens`, ExchangeTokensSchema));
  }

  function loadFamilies(id: number): Promise<ExchangeFamilies | undefined> {
    return loadInto(families, id, () => getJson(`/api/exchanges/${id}/families`, ExchangeFamiliesSchema));
  }

  /** Loads the trace's exchanges (all, or those `only` accepts), a few at a time; `views` for model chats too. */
  async function loadAll(opts: { views: boolean; only?: (x: ExchangeSummary) => boolean }): Promise<void> {
    const ids = list.value.filter((x) => !opts.only || opts.only(x)).map((x) => x.id);
    let i = 0;
    async function worker(): Promise<void> {
      while (i < ids.length) {
        const id = ids[i++] as number;
        await loadExchange(id);
        const x = exchanges.value.get(id);
        if (opts.views && x?.classification.kind === "model.chat") await loadViews(id);
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()]);
  }

  /** The model request before a given one in this trace (what the diff compares with). */
  function previousModelRequest(id: number): ExchangeSummary | undefined {
    const chats = list.value.filter((x) => x.classification.kind === "model.chat");
    const i = chats.findIndex((x) => x.id === id);
    return i > 0 ? chats[i - 1] : undefined;
  }

  return { loadExchange, loadViews, loadTokens, loadFamilies, loadAll, previousModelRequest };
}

/** Loads one exchange's detail into its cache, once at a time; a failed load waits before it is tried again. */
async function loadInto<T>(
  map: Signal<ReadonlyMap<number, Loadable<T>>>,
  id: number,
  load: () => Promise<T>,
): Promise<T | undefined> {
  const cur = map.value.get(id);
  if (cur?.status === "ready") return cur.value;
  if (cur?.status === "loading") return undefined;
  // A failed load is tried again only after a wait (retry-after.ts): views ask on every frame.
  const failed =
    cur?.status === "error" && cur.retryAt !== undefined && cur.failures !== undefined
      ? { failures: cur.failures, retryAt: cur.retryAt }
      : undefined;
  if (failed && !mayRetry(failed, Date.now())) return undefined;
  map.value = new Map(map.value).set(id, failed ? { status: "loading", failed } : { status: "loading" });
  try {
    const value = await load();
    map.value = new Map(map.value).set(id, { status: "ready", value });
    return value;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    map.value = new Map(map.value).set(id, { status: "error", message, ...afterFailure(failed ?? null, Date.now()) });
    if (!(e instanceof SessionEndedError)) console.error(`[hopscope] loading exchange ${id} failed`, e);
    return undefined;
  }
}

/**
 * The live chunk texts with one more appended. The exchange's list is appended in place (a long generation
 * has thousands of chunks; copying each time is quadratic); the new Map is what tells readers something changed.
 */
function withChunk(
  chunks: ReadonlyMap<number, readonly string[]>,
  exchangeId: number,
  text: string,
): ReadonlyMap<number, readonly string[]> {
  const next = new Map(chunks as ReadonlyMap<number, string[]>);
  const texts = next.get(exchangeId) ?? [];
  texts.push(text);
  next.delete(exchangeId); // re-insert so Map order is least-recently-updated first
  next.set(exchangeId, texts);
  while (next.size > MAX_LIVE_STREAMS) next.delete(next.keys().next().value as number);
  return next;
}
