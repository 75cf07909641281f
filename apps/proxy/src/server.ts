/**
 * start(config): the recorder: SQLite store, recorder, live feed, the three taps and the UI/API server.
 * Returns handles for tests and the launcher; close() stops accepting, flushes and closes the database.
 * Three threads (link/threads.ts): the taps forward on their own, the recording thread records and
 * stores, and this one serves the API and the live feed.
 */
import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { Config } from "./config";
import { dbLocation, openDb, type Db } from "./recording/db";
import { TraceStore } from "./main/trace-store";
import { TraceReader } from "./recording/trace-reader";
import { RecorderClient } from "./main/recorder-client";
import { RecorderThreads } from "./link/threads";
import type { QueueLimits } from "./link/protocol";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import { LiveFeed } from "./main/live/feed";
import type { Announce } from "./link/frames";
import { listenServer } from "@hopscope/nodekit/listen";
import { ModelUpstreamProbe } from "./main/views/upstream-info";
import { ExchangeViewBuilder } from "./main/views/exchange-views";
import { ingestCap } from "./main/routes/ingest";
import { createApp } from "./app";
import { StdioIngest } from "./main/ingest/stdio-ingest";
import { Replays } from "./main/replay/replays";
import { silentLogger, type Logger } from "./logger";
import type { TapInfo } from "./main/routes/status";
import { OtlpForwarder } from "./main/otlp-forwarder";
import { withNotes } from "./main/notes/notes-bundle";
import { createOtlpLiveExporter, parseOtlpHeaders } from "./main/export/otlp-live";
import { openAudience } from "./main/audience/open";
import { startNotes, type NotesService } from "./main/notes/notes-service";
import { REPO_ROOT } from "./config";

export interface StartDeps {
  logger?: Logger;
  /** Heartbeat interval of the live feed (tests shorten it). */
  heartbeatMs?: number;
  /** Bound on the queue to the recording thread (tests shrink it to see it reached). */
  queueLimits?: QueueLimits;
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

export async function start(config: Config, deps: StartDeps = {}): Promise<RecorderHandle> {
  const logger = deps.logger ?? silentLogger;
  const location = dbLocation(config.dbFile);
  const guard = { allowedHosts: config.allowedHosts, bindHost: config.host };
  let feed: LiveFeed | null = null;
  // The audience view (when open) sees the same events, for the traces the speaker has shown.
  let audienceRelay: Announce | null = null;
  const announce: Announce = (event) => {
    feed?.publish(event);
    audienceRelay?.(event);
    // A notes-file change is decided a moment after its tool call ended: its trace is exported (again) with it.
    if ("type" in event && event.type === "notes.changed" && event.change.traceId)
      otlp?.traceUpdated(event.change.traceId);
  };
  let otlp: OtlpForwarder | null = null;
  let store: TraceStore | null = null;
  let resumeReader: TraceReader | null = null;
  const threads = new RecorderThreads(
    {
      file: location.file,
      maxBodyBytes: config.maxBodyBytes,
      flushIntervalMs: config.flushIntervalMs,
      maxTraces: config.maxTraces,
      host: config.host,
      taps: TAPS.map((tap) => ({ tap, upstream: config.taps[tap].upstream, port: config.taps[tap].port })),
      timeoutMs: config.upstreamTimeoutMs,
      headersTimeoutMs: config.headersTimeoutMs,
      guard,
      ...(deps.queueLimits ? { queueLimits: deps.queueLimits } : {}),
    },
    {
      // Serialised on the recording thread already; numbered and sent (or kept for resumes) here.
      announce: (frames) => {
        for (const f of frames)
          announce(typeof f === "number" ? { park: f, size: PARKED_SIZE } : { json: () => f, size: f.length });
      },
      committed: (traceIds) => {
        for (const id of traceIds) otlp?.traceUpdated(id);
        if (feed && feed.clientCount > 0 && store) {
          // Someone is watching: read on the recording thread (this thread never queries SQLite for it).
          store.storedTraces(traceIds).then(
            (stored) =>
              stored.forEach((t, i) =>
                announce(
                  t ? { type: "trace.updated", ...t } : { type: "trace.deleted", traceId: traceIds[i] as string },
                ),
              ),
            (err: unknown) => logger.error({ err }, "could not read committed traces for the live feed"),
          );
          return;
        }
        for (const id of traceIds) {
          // Nobody is watching: built only if a client later resumes past it (two queries on this thread's own
          // reader, rare); a trace deleted by then is reported as such.
          announce({
            lazy: () => {
              const t = resumeReader?.storedTrace(id);
              return t ? { type: "trace.updated", ...t } : { type: "trace.deleted", traceId: id };
            },
            size: 1024,
          });
        }
      },
    },
    logger,
  );
  let db: Db;
  let tapList: Awaited<typeof threads.ready>;
  try {
    tapList = await threads.ready;
    // A reader for frames built when a client resumes (opened once the recording thread created the schema).
    db = openDb(location.file);
  } catch (err) {
    await threads.close();
    location.remove();
    throw new Error(`could not start the recorder: ${(err as Error).message}`, { cause: err });
  }
  store = new TraceStore(threads);
  resumeReader = new TraceReader(db);
  const traceStore = store;
  const recorder = new RecorderClient(threads);
  let notes: NotesService | null = null;
  const shutdown = async () => {
    notes?.close();
    await threads.close();
    await otlp?.close();
    db.close();
    location.remove();
  };
  if (config.otlp) {
    try {
      const exporter = createOtlpLiveExporter({
        endpoint: config.otlp.endpoint,
        ...(config.otlp.headers ? { headers: parseOtlpHeaders(config.otlp.headers) } : {}),
      });
      otlp = new OtlpForwarder({
        exporter,
        store: traceStore,
        recorder,
        logger,
        quietMs: config.otlp.quietMs,
        // The notes file's changes go with the trace, as in the file and OTLP downloads (started below).
        complete: (bundle) => (notes ? withNotes(bundle, notes.table) : bundle),
      });
    } catch (err) {
      await shutdown();
      throw err;
    }
  }
  // The recording thread serialises live frames only while someone watches (a feed client, an audience viewer).
  let watching = false;
  let audienceViewers = () => 0;
  const watchersChanged = () => {
    const now = (feed?.clientCount ?? 0) > 0 || audienceViewers() > 0;
    if (now !== watching) threads.setWatching((watching = now));
  };
  feed = new LiveFeed({
    maxBufferedBytes: config.wsMaxBufferedBytes,
    ...(deps.heartbeatMs === undefined ? {} : { heartbeatMs: deps.heartbeatMs }),
    snapshot: () => recorder.snapshot(50),
    parked: (parks) => recorder.parkedFrames(parks),
    onClientsChanged: watchersChanged,
    logger,
    guard,
  });
  const liveFeed = feed;
  try {
    notes = await startNotes(
      { ...config.notes, mcpUpstream: config.taps.mcp.upstream, root: REPO_ROOT, dbFile: location.file },
      { announce, inFlight: () => recorder.inFlight(), reader: db, logger },
    );
  } catch (err) {
    liveFeed.close();
    await shutdown();
    throw err;
  }
  const notesService = notes;
  const taps = Object.fromEntries(
    tapList.map((h) => [h.tap, { port: h.port, upstream: h.upstream, url: h.url }]),
  ) as Record<Tap, TapInfo>;
  const probe = new ModelUpstreamProbe(config.taps.model.upstream, logger);
  const views = new ExchangeViewBuilder({
    store: traceStore,
    probe,
    modelUpstream: config.taps.model.upstream,
    logger,
  });
  const replays = new Replays({ store: traceStore, recorder, announce, logger });
  const audience = config.audience
    ? await openAudience({
        ...config.audience,
        store: traceStore,
        views,
        webDist: config.webDist,
        logger,
        notes: notesService,
        live: { exchange: (id) => recorder.inFlightExchange(id), trace: (id) => recorder.liveTrace(id) },
      }).catch(async (err: unknown) => {
        liveFeed.close();
        await shutdown();
        throw err;
      })
    : null;
  if (audience) {
    audienceRelay = (event) => audience.session.relay(event);
    audienceViewers = () => audience.session.viewerCount;
    audience.session.onViewersChanged = watchersChanged;
  }
  const stdioIngest = new StdioIngest({ store: traceStore, recorder, announce, maxBodyBytes: config.maxBodyBytes });
  const app = createApp({
    store: traceStore,
    recorder,
    announce,
    feed: liveFeed,
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
    stdioIngest,
    audience,
    notes: notesService,
  });

  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server;
  liveFeed.attach(server);
  const listening = await listenServer(server, config.uiPort, config.host).catch(async (err: unknown) => {
    await audience?.listener.close();
    liveFeed.close();
    await shutdown();
    throw new Error(`could not listen on ${config.host}:${config.uiPort}: ${(err as Error).message}`, { cause: err });
  });
  const { port, url } = listening;
  let closed = false;
  return {
    url,
    port,
    wsUrl: `${url.replace(/^http/, "ws")}/ws`,
    taps,
    liveClients: () => liveFeed.clientCount,
    storage: () => threads.health(),
    close: async () => {
      if (closed) return;
      closed = true;
      await replays.close();
      await audience?.listener.close();
      liveFeed.close();
      await listening.close();
      await views.close();
      // The taps close first; the exchanges they cut off reach the recording thread before it closes.
      await shutdown();
    },
  };
}
