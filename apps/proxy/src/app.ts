/** The recorder's HTTP app on UI_PORT: one Hono per resource, composed here, with one error handler. */
import { Hono } from "hono";
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { RecordingLink } from "./link/calls";
import type { InFlight } from "./main/in-flight";
import type { StorageHealth } from "@hopscope/shared/trace/api";
import type { Announce } from "./link/frames";
import type { LiveFeed } from "./main/live/feed";
import type { ModelUpstreamProbe } from "./main/views/upstream-info";
import type { ExchangeViewBuilder } from "./main/views/exchange-views";
import type { Logger } from "./logger";
import { tracesRoutes } from "./main/routes/traces";
import { exchangesRoutes } from "./main/routes/exchanges";
import { savedRoutes } from "./main/routes/saved";
import { importRoutes } from "./main/routes/import";
import { askRoutes } from "./main/routes/ask";
import { replayRoutes } from "./main/routes/replay";
import { ingestRoutes } from "./main/routes/ingest";
import type { StdioIngest } from "./main/ingest/stdio-ingest";
import type { Replays } from "./main/replay/replays";
import { configRoutes, healthRoutes, type TapInfo } from "./main/routes/status";
import { errorHandler } from "./main/routes/errors";
import { staticRoutes } from "./main/static";
import { localGuard } from "./main/routes/local-guard";
import { presenterRoutes, type PresenterRoutesDeps } from "./main/audience/presenter-routes";
import type { GuardPolicy } from "@hopscope/nodekit/guard";
import { notesRoutes } from "./main/routes/notes";
import type { NotesService } from "./main/notes/notes-service";

export interface AppDeps {
  link: RecordingLink;
  inFlight: InFlight;
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
  const importDeps = { link: deps.link, announce: deps.announce, notes: deps.notes };
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
