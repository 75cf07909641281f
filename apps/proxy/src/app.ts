/** The recorder's HTTP app on UI_PORT: one Hono per resource, composed here, with one error handler. */
import { Hono } from "hono";
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { TraceStore } from "./store/trace-store";
import type { RecorderClient } from "./recorder-client";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import type { Announce } from "./live/frames";
import type { LiveFeed } from "./live/feed";
import type { ModelUpstreamProbe } from "./views/upstream-info";
import type { ExchangeViewBuilder } from "./views/exchange-views";
import type { Logger } from "./logger";
import { tracesRoutes } from "./routes/traces";
import { exchangesRoutes } from "./routes/exchanges";
import { savedRoutes } from "./routes/saved";
import { importRoutes } from "./routes/import";
import { askRoutes } from "./routes/ask";
import { replayRoutes } from "./routes/replay";
import { ingestRoutes } from "./routes/ingest";
import type { StdioIngest } from "./ingest/stdio-ingest";
import type { Replays } from "./replay/replays";
import { configRoutes, healthRoutes, type TapInfo } from "./routes/status";
import { errorHandler } from "./routes/errors";
import { staticRoutes } from "./static";
import { localGuard } from "./routes/local-guard";
import { presenterRoutes, type PresenterRoutesDeps } from "./audience/presenter-routes";
import type { GuardPolicy } from "@hopscope/nodekit/guard";
import { notesRoutes } from "./routes/notes";
import type { NotesService } from "./notes/notes-service";

export interface AppDeps {
  store: TraceStore;
  recorder: RecorderClient;
  storage: () => StorageHealth;
  announce: Announce;
  feed: LiveFeed;
  probe: ModelUpstreamProbe;
  views: ExchangeViewBuilder;
  taps: Record<Tap, TapInfo>;
  tracesDir: string;
  webDist: string;
  /** Which Host and Origin names may reach the API (the one request guard). */
  guard: GuardPolicy;
  /** Largest trace file /api/import and /api/replay accept (MAX_IMPORT_BYTES). */
  maxImportBytes: number;
  logger: Logger;
  replays: Replays;
  /** Records what the stdio tap (`hopscope wrap`) sends. */
  stdioIngest: StdioIngest;
  /** Largest batch /api/ingest/stdio takes (ingestCap of MAX_BODY_BYTES). */
  maxIngestBytes: number;
  /** The audience view, when one is open (`--audience`). */
  audience?: PresenterRoutesDeps["audience"];
  notes: NotesService;
}

export function createApp(deps: AppDeps) {
  const importDeps = { store: deps.store, recorder: deps.recorder, announce: deps.announce, notes: deps.notes };
  const app = new Hono()
    .use("*", localGuard(deps.guard))
    .route("/api/health", healthRoutes(deps))
    .route("/api/config", configRoutes(deps))
    .route("/api/traces", tracesRoutes(deps))
    .route("/api/exchanges", exchangesRoutes(deps))
    .route("/api/saved", savedRoutes({ ...importDeps, tracesDir: deps.tracesDir, logger: deps.logger }))
    .route("/api/import", importRoutes({ ...importDeps, maxImportBytes: deps.maxImportBytes }))
    .route("/api/ask", askRoutes({ agentTapUrl: deps.taps.agent.url }))
    .route("/api/replay", replayRoutes(deps))
    .route("/api/ingest", ingestRoutes(deps.stdioIngest, deps.maxIngestBytes))
    .route("/api/audience", presenterRoutes({ audience: deps.audience ?? null }))
    .route("/api/notes", notesRoutes(deps.notes))
    .all("/api/*", (c) =>
      c.json(
        { error: `no API route ${c.req.method} ${c.req.path}; see docs/architecture.md "Recorder HTTP API"` },
        404,
      ),
    )
    .route("/", staticRoutes(deps.webDist));
  app.onError(errorHandler(deps.logger));
  return app;
}
