/**
 * start(config): the recorder: the taps thread, the recording thread (SQLite), and on this thread the live
 * feed, the notes watcher, OTLP export, the audience view and the UI/API server. Each part is built by one
 * function below, in order; `close` runs one ordered list that closes whatever was opened, whether start()
 * failed halfway or the recorder is stopped.
 */
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import { listenServer } from "@hopscope/nodekit/listen";
import { REPO_ROOT, type Config } from "./config";
import { silentLogger, type Logger } from "./logger";
import { createApp } from "./app";
import { dbLocation } from "./recording/db";
import { ThreadLink } from "./link/threads";
import type { QueueLimits } from "./link/protocol";
import type { AnyEvent } from "./link/frames";
import { InFlight } from "./main/in-flight";
import { LiveFeed } from "./main/live/feed";
import { subscriptionWhile } from "./main/live/subscription";
import { ModelUpstreamProbe } from "./main/views/upstream-info";
import { ExchangeViewBuilder } from "./main/views/exchange-views";
import { ingestCap } from "./main/routes/ingest";
import { StdioIngest } from "./main/ingest/stdio-ingest";
import { Replays } from "./main/replay/replays";
import type { ReplayClock } from "./main/replay/player";
import type { TapInfo } from "./main/routes/status";
import { OtlpForwarder } from "./main/otlp-forwarder";
import { withNotes } from "./main/notes/notes-bundle";
import { createOtlpLiveExporter, parseOtlpHeaders } from "./main/export/otlp-live";
import { openAudience } from "./main/audience/open";
import { startNotes, type NotesService } from "./main/notes/notes-service";
import { createUiServer } from "./main/ui-server";

export interface StartDeps {
  logger?: Logger;
  /** Heartbeat interval of the live feed (tests shorten it). */
  heartbeatMs?: number;
  /** Bound on the queue to the recording thread (tests shrink it to see it reached). */
  queueLimits?: QueueLimits;
  /** The clock replays play by (tests set the pace with their own). */
  replayClock?: ReplayClock;
}

export interface RecorderHandle {
  url: string;
  port: number;
  wsUrl: string;
  taps: Record<Tap, TapInfo>;
  /** Live feed clients connected now (tests watch slow clients being dropped). */
  liveClients(): number;
  /** Whether recording reaches the disk (what /api/health reports). */
  storage(): StorageHealth;
  close(): Promise<void>;
}

const TAPS: Tap[] = ["model", "mcp", "agent"];
/** What a parked frame is counted as in the feed's ring bound (its real size is unknown until fetched). */
const PARKED_SIZE = 512;

/** The parts start() builds, each set once it is open (what `closeParts` closes). */
interface Parts {
  location: { file: string; remove: () => void };
  threads: ThreadLink;
  feed: LiveFeed;
  notes: NotesService;
  otlp: OtlpForwarder;
  audience: Awaited<ReturnType<typeof openAudience>>;
  replays: Replays;
  listening: Awaited<ReturnType<typeof listenServer>>;
  views: ExchangeViewBuilder;
}

/**
 * The one close order: replays first (they remove their unfinished traces), then what serves clients, then
 * the taps and the recording thread (the exchanges the taps cut off reach it before it closes), then OTLP
 * (it sends what those last commits touched) and the database file of a `:memory:` store.
 */
async function closeParts(p: Partial<Parts>): Promise<void> {
  await p.replays?.close();
  await p.audience?.listener.close();
  p.feed?.close();
  await p.listening?.close();
  await p.views?.close();
  p.notes?.close();
  await p.threads?.close();
  await p.otlp?.close();
  p.location?.remove();
}

export async function start(config: Config, deps: StartDeps = {}): Promise<RecorderHandle> {
  const logger = deps.logger ?? silentLogger;
  const parts: Partial<Parts> = {};
  try {
    return await build(config, deps, logger, parts);
  } catch (err) {
    await closeParts(parts);
    throw err;
  }
}

async function build(config: Config, deps: StartDeps, logger: Logger, parts: Partial<Parts>): Promise<RecorderHandle> {
  const guard = { allowedHosts: config.allowedHosts, bindHost: config.host };
  // Every announced event goes to the parts that show or export it, added as they are built.
  const listeners: ((event: AnyEvent) => void)[] = [];
  const announce = (event: AnyEvent) => listeners.forEach((listen) => listen(event));
  const committed: ((traceIds: string[]) => void)[] = [];
  const location = (parts.location = dbLocation(config.dbFile));
  const threads = (parts.threads = startThreads(config, deps, logger, location.file, {
    // Serialised on the recording thread already; numbered and sent (or kept for resumes) by the feed.
    announce: (frames) => {
      for (const f of frames)
        announce(typeof f === "number" ? { park: f, size: PARKED_SIZE } : { json: () => f, size: f.length });
    },
    committed: (traceIds) => committed.forEach((c) => c(traceIds)),
  }));
  const tapList = await threads.ready.catch((err: unknown) => {
    throw new Error(`could not start the recorder: ${(err as Error).message}`, { cause: err });
  });
  const inFlight = new InFlight(threads);
  const feed = (parts.feed = new LiveFeed({
    maxBufferedBytes: config.wsMaxBufferedBytes,
    ...(deps.heartbeatMs === undefined ? {} : { heartbeatMs: deps.heartbeatMs }),
    snapshot: () => inFlight.snapshot(50),
    parked: (parks) => threads.call("parkedFrames", parks),
    subscribe: () => threads.subscribe(),
    logger,
    guard,
  }));
  listeners.push((event) => feed.publish(event));
  const notes = (parts.notes = await startNotes(
    { ...config.notes, mcpUpstream: config.taps.mcp.upstream, root: REPO_ROOT, dbFile: location.file },
    {
      announce,
      inFlight: () => inFlight.exchanges(),
      stored: (window) => threads.call("mcpExchangesIn", window),
      logger,
    },
  ));
  const otlp = buildOtlp(config, { threads, inFlight, notes, logger });
  if (otlp) {
    parts.otlp = otlp;
    committed.push((traceIds) => traceIds.forEach((id) => otlp.traceUpdated(id)));
    // A notes-file change is decided a moment after its tool call ended: its trace is exported (again) with it.
    listeners.push((event) => {
      if ("type" in event && event.type === "notes.changed" && event.change.traceId)
        otlp.traceUpdated(event.change.traceId);
    });
  }
  const taps = Object.fromEntries(
    tapList.map((h) => [h.tap, { port: h.port, upstream: h.upstream, url: h.url }]),
  ) as Record<Tap, TapInfo>;
  return serve(config, parts, { threads, inFlight, notes, logger, feed, taps, announce, listeners }, deps.replayClock);
}

/** The API, the audience view and replays, served on UI_PORT; the handle start() returns. */
async function serve(
  config: Config,
  parts: Partial<Parts>,
  main: MainParts & {
    feed: LiveFeed;
    taps: Record<Tap, TapInfo>;
    announce: (event: AnyEvent) => void;
    listeners: ((event: AnyEvent) => void)[];
  },
  replayClock?: ReplayClock,
): Promise<RecorderHandle> {
  const { threads, inFlight, notes, logger, feed, taps, announce } = main;
  const guard = { allowedHosts: config.allowedHosts, bindHost: config.host };
  const probe = new ModelUpstreamProbe(config.taps.model.upstream, logger);
  const views = (parts.views = new ExchangeViewBuilder({
    link: threads,
    probe,
    modelUpstream: config.taps.model.upstream,
    logger,
  }));
  const replays = (parts.replays = new Replays({ link: threads, inFlight, announce, logger, clock: replayClock }));
  const audience = config.audience
    ? (parts.audience = await buildAudience(config, { threads, inFlight, views, notes, logger }))
    : null;
  if (audience) main.listeners.push((event) => audience.session.relay(event));
  const app = createApp({
    link: threads,
    inFlight,
    announce,
    feed,
    probe,
    views,
    taps,
    storage: () => threads.health(),
    tracesDir: config.tracesDir,
    webDist: config.webDist,
    guard,
    maxImportBytes: config.maxImportBytes,
    maxIngestBytes: ingestCap(config.maxBodyBytes),
    logger,
    replays,
    stdioIngest: new StdioIngest({ link: threads, inFlight, announce, maxBodyBytes: config.maxBodyBytes }),
    audience,
    notes,
  });
  const server = createUiServer(app.fetch, config.headersTimeoutMs);
  feed.attach(server);
  const listening = (parts.listening = await listenServer(server, config.uiPort, config.host).catch((err: unknown) => {
    throw new Error(`could not listen on ${config.host}:${config.uiPort}: ${(err as Error).message}`, { cause: err });
  }));
  let closing: Promise<void> | null = null;
  return {
    url: listening.url,
    port: listening.port,
    wsUrl: `${listening.url.replace(/^http/, "ws")}/ws`,
    taps,
    liveClients: () => feed.clientCount,
    storage: () => threads.health(),
    close: () => (closing ??= closeParts(parts)),
  };
}

function startThreads(
  config: Config,
  deps: StartDeps,
  logger: Logger,
  file: string,
  handlers: ConstructorParameters<typeof ThreadLink>[1],
): ThreadLink {
  return new ThreadLink(
    {
      file,
      maxBodyBytes: config.maxBodyBytes,
      flushIntervalMs: config.flushIntervalMs,
      maxTraces: config.maxTraces,
      host: config.host,
      taps: TAPS.map((tap) => ({ tap, upstream: config.taps[tap].upstream, port: config.taps[tap].port })),
      timeoutMs: config.upstreamTimeoutMs,
      headersTimeoutMs: config.headersTimeoutMs,
      guard: { allowedHosts: config.allowedHosts, bindHost: config.host },
      ...(deps.queueLimits ? { queueLimits: deps.queueLimits } : {}),
    },
    handlers,
    logger,
  );
}

interface MainParts {
  threads: ThreadLink;
  inFlight: InFlight;
  notes: NotesService;
  logger: Logger;
}

function buildOtlp(config: Config, { threads, inFlight, notes, logger }: MainParts): OtlpForwarder | null {
  if (!config.otlp) return null;
  const exporter = createOtlpLiveExporter({
    endpoint: config.otlp.endpoint,
    ...(config.otlp.headers ? { headers: parseOtlpHeaders(config.otlp.headers) } : {}),
  });
  return new OtlpForwarder({
    exporter,
    link: threads,
    inFlight,
    logger,
    quietMs: config.otlp.quietMs,
    // The notes file's changes go with the trace, as in the file and OTLP downloads.
    complete: (bundle) => withNotes(bundle, notes.table),
  });
}

/** The audience view; it subscribes to serialised frames while it has a viewer, as the feed does. */
async function buildAudience(
  config: Config,
  { threads, inFlight, views, notes, logger }: MainParts & { views: ExchangeViewBuilder },
): Promise<Parts["audience"]> {
  if (!config.audience) throw new Error("no audience view configured");
  const audience = await openAudience({
    ...config.audience,
    link: threads,
    views,
    webDist: config.webDist,
    logger,
    notes,
    live: { exchange: (id) => inFlight.exchange(id), trace: (id) => inFlight.trace(id) },
  });
  const subscribed = subscriptionWhile(() => threads.subscribe());
  audience.session.onViewersChanged = () => subscribed(audience.session.viewerCount > 0);
  return audience;
}
