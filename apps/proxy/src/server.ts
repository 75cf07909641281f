/**
 * start(config): the recorder: SQLite store, recorder, live feed, the three taps and the UI/API server.
 * Returns handles for tests and the launcher; close() stops accepting, flushes and closes the database.
 * Recording runs on its own thread (recording/); this thread forwards, serves the API and the live feed.
 */
import { createAdaptorServer } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { Config } from "./config";
import { dbLocation, openDb, type Db } from "./store/db";
import { TraceStore } from "./store/trace-store";
import { TraceReader } from "./store/trace-reader";
import { TapRecorder } from "./tap-recorder";
import { RecordingLink, type QueueLimits } from "./recording/link";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import { LiveFeed } from "./live/feed";
import type { Announce } from "./live/frames";
import { startTap, type TapHandle } from "./tap/tap-server";
import { ModelUpstreamProbe } from "./views/upstream-info";
import { ExchangeViewBuilder } from "./views/exchange-views";
import { createApp } from "./app";
import { Replays } from "./replay/replays";
import { silentLogger, type Logger } from "./logger";
import type { TapInfo } from "./routes/status";
import { OtlpForwarder } from "./otlp-forwarder";
import { createOtlpLiveExporter, parseOtlpHeaders } from "./export/otlp-live";

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

export async function start(config: Config, deps: StartDeps = {}): Promise<RecorderHandle> {
  const logger = deps.logger ?? silentLogger;
  const location = dbLocation(config.dbFile);
  let feed: LiveFeed | null = null;
  const announce: Announce = (event) => feed?.publish(event);
  let otlp: OtlpForwarder | null = null;
  let recorder: TapRecorder | null = null;
  let store: TraceStore | null = null;
  let resumeReader: TraceReader | null = null;
  const link = new RecordingLink(
    { file: location.file, maxBodyBytes: config.maxBodyBytes, flushIntervalMs: config.flushIntervalMs, maxTraces: config.maxTraces },
    {
      announce: (frames) => recorder?.announced(frames),
      committed: (traceIds) => {
        for (const id of traceIds) otlp?.traceUpdated(id);
        if (feed && feed.clientCount > 0 && store) {
          // Someone is watching: read on the recording thread (the forwarding thread never queries SQLite).
          store.storedTraces(traceIds).then(
            (stored) => stored.forEach((s, i) => announce(s ? { type: "trace.updated", ...s } : { type: "trace.deleted", traceId: traceIds[i] as string })),
            (err: unknown) => logger.error({ err }, "could not read committed traces for the live feed"),
          );
          return;
        }
        for (const id of traceIds) {
          // Nobody is watching: built only if a client later resumes past it (two queries on this thread's own
          // reader, rare); a trace deleted by then is reported as such.
          announce({
            lazy: () => {
              const stored = resumeReader?.storedTrace(id);
              return stored ? { type: "trace.updated", ...stored } : { type: "trace.deleted", traceId: id };
            },
            size: 1024,
          });
        }
      },
    },
    logger,
    deps.queueLimits,
  );
  let db: Db;
  let firstId: number;
  try {
    firstId = (await link.ready) + 1;
    // A reader for frames built when a client resumes (opened once the recording thread created the schema).
    db = openDb(location.file);
  } catch (err) {
    await link.close();
    location.remove();
    throw new Error(`could not open the database ${config.dbFile}: ${(err as Error).message}`, { cause: err });
  }
  store = new TraceStore(link);
  resumeReader = new TraceReader(db);
  const traceStore = store;
  const tapRecorder = new TapRecorder({ link, announce, maxBodyBytes: config.maxBodyBytes, firstId });
  recorder = tapRecorder;
  const shutdown = async () => {
    await link.close();
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
      otlp = new OtlpForwarder({ exporter, store: traceStore, recorder: tapRecorder, logger, quietMs: config.otlp.quietMs });
    } catch (err) {
      await shutdown();
      throw err;
    }
  }
  feed = new LiveFeed({
    maxBufferedBytes: config.wsMaxBufferedBytes,
    ...(deps.heartbeatMs === undefined ? {} : { heartbeatMs: deps.heartbeatMs }),
    snapshot: async () => ({ traces: (await traceStore.listTraces(50)).traces, inFlight: tapRecorder.inFlight() }),
    logger,
  });
  const liveFeed = feed;

  const tapHandles: TapHandle[] = [];
  try {
    for (const tap of TAPS) {
      const t = config.taps[tap];
      tapHandles.push(await startTap({ tap, upstream: t.upstream, host: config.host, port: t.port, recorder: tapRecorder, timeoutMs: config.upstreamTimeoutMs, logger }));
    }
  } catch (err) {
    await Promise.all(tapHandles.map((h) => h.close()));
    liveFeed.close();
    await shutdown();
    throw new Error(`could not start the taps: ${(err as Error).message}`, { cause: err });
  }
  const taps = Object.fromEntries(tapHandles.map((h) => [h.tap, { port: h.port, upstream: h.upstream, url: h.url }])) as Record<Tap, TapInfo>;
  const probe = new ModelUpstreamProbe(config.taps.model.upstream, logger);
  const views = new ExchangeViewBuilder({ store: traceStore, probe, modelUpstream: config.taps.model.upstream, logger });
  const replays = new Replays({ store: traceStore, recorder: tapRecorder, announce, logger });
  const app = createApp({
    store: traceStore, recorder: tapRecorder, announce, feed: liveFeed, probe, views, taps, storage: () => link.health(),
    tracesDir: config.tracesDir, webDist: config.webDist, bindHost: config.host, logger, replays,
  });

  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server;
  liveFeed.attach(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.uiPort, config.host, () => resolve());
  }).catch(async (err: unknown) => {
    await Promise.all(tapHandles.map((h) => h.close()));
    liveFeed.close();
    await shutdown();
    throw new Error(`could not listen on ${config.host}:${config.uiPort}: ${(err as Error).message}`, { cause: err });
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  let closed = false;
  return {
    url: `http://${host}:${port}`,
    port,
    wsUrl: `ws://${host}:${port}/ws`,
    taps,
    liveClients: () => liveFeed.clientCount,
    storage: () => link.health(),
    close: async () => {
      if (closed) return;
      closed = true;
      await replays.close();
      await Promise.all(tapHandles.map((h) => h.close()));
      liveFeed.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      // Let the close events of cut-off exchanges run, so they reach the recording thread before it closes.
      await new Promise((resolve) => setImmediate(resolve));
      await shutdown();
    },
  };
}
