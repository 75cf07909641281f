/**
 * The audience listener's only routes, all under `/j/<join code>/` and all GET: the viewer page and its
 * assets, and a read-only view of the traces the presenter has shown in this session (bodies come from
 * the store, redacted on the way in and again on the way out). A wrong or missing code is a bare 403;
 * any other method is 405. Nothing here changes anything.
 */
import { readFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { Exchange, Trace } from "@hopscope/shared/trace/schemas";
import type { RecordingLink } from "../../link/calls";
import type { ExchangeViewBuilder } from "../views/exchange-views";
import { viewsJsonPieces } from "../views/views-json";
import { collectPieces, piecesBody } from "../json-pieces";
import type { Logger } from "../../logger";
import type { NotesService } from "../notes/notes-service";
import type { AudienceSession } from "./session";
import { ShownExchanges } from "./shown-exchanges";
import { redactedExchange, redactedSummary } from "../export/redacted-exchange";

export interface ViewerRoutesDeps {
  session: AudienceSession;
  link: RecordingLink;
  views: ExchangeViewBuilder;
  webDist: string;
  logger: Logger;
  /** Exchanges and traces still being recorded (not in the store yet), read-only: the live UI shows them too. */
  live?: { exchange(id: number): Promise<Exchange | null>; trace(id: string): Promise<Trace | null> };
  /** The notes file's changes, read-only and only those of shown traces (the file lane of the viewer). */
  notes?: Pick<NotesService, "watch" | "table">;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

const HEADERS = {
  // The join code is in the URL: never send it on as a Referer.
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

const IdSchema = z.coerce.number().int().positive();
const NotesChangesQuery = z.object({
  traceId: z.string().min(1),
  from: z.coerce.number().default(0),
  to: z.coerce.number().default(Number.MAX_SAFE_INTEGER),
});
/** A room asks for the same few views a hundred times: each stored exchange's views are derived once. */
const MAX_CACHED_VIEWS = 200;

/** The watch as a viewer may see it: the file's short name, never this machine's full path. */
function viewerWatch(w: NotesService["watch"] | undefined): NotesService["watch"] {
  if (!w) return { state: "off" };
  return w.state === "watching" ? { ...w, path: w.file } : w;
}

function missing(c: Context, what: string) {
  return c.json({ error: `${what} is not part of what the presenter has shown` }, 404, HEADERS);
}

/** A trace's exchange summaries as viewers see them: stored ones and those still being recorded. */
async function summariesOf(link: RecordingLink, live: ViewerRoutesDeps["live"], id: string): Promise<Trace | null> {
  const [stored, recording] = await Promise.all([link.call("trace", id), live?.trace(id) ?? null]);
  if (!stored || !recording) return stored ?? recording;
  const ids = new Set(stored.exchanges.map((x) => x.id));
  return { ...stored, exchanges: [...stored.exchanges, ...recording.exchanges.filter((x) => !ids.has(x.id))] };
}

/** Each stored exchange's views as pieces of JSON, derived once and kept (the last MAX_CACHED_VIEWS of them). */
function cachedViews(views: ExchangeViewBuilder): (x: Exchange) => Promise<string[]> {
  const cache = new Map<number, Promise<string[]>>();
  const json = async (x: Exchange) => collectPieces(viewsJsonPieces(await views.build(x)));
  return (x) => {
    // An exchange still in flight has a partial body: its views are derived each time, never kept.
    if (x.state === "pending" || x.state === "streaming") return json(x);
    let hit = cache.get(x.id);
    if (!hit) {
      hit = json(x);
      // A failed build is not kept: the next viewer asks again.
      hit.catch(() => cache.delete(x.id));
      cache.set(x.id, hit);
      if (cache.size > MAX_CACHED_VIEWS) cache.delete(cache.keys().next().value as number);
    }
    return hit;
  };
}

/**
 * The code first: without it the listener says nothing at all, not even which methods exist. Then only GET
 * and HEAD, and `/j/<code>` itself redirects to the page.
 */
function codeFirst(session: AudienceSession): MiddlewareHandler {
  return async (c, next) => {
    const m = /^\/j\/([^/]+)(\/.*)?$/.exec(c.req.path);
    const address = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress ?? "?";
    if (session.codeGuard.blocked(address)) return c.body(null, 429, { "Retry-After": "60" });
    if (!m || !session.accepts(m[1])) {
      // Only a code tried counts: a browser's own /favicon.ico is no guess.
      if (m) session.codeGuard.wrong(address);
      return c.body(null, 403);
    }
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      return c.json({ error: "the audience view is read-only: only GET is answered here" }, 405, {
        ...HEADERS,
        Allow: "GET, HEAD",
      });
    }
    if (m[2] === undefined) return c.redirect(`${c.req.path}/`, 308);
    await next();
  };
}

export function viewerRoutes(deps: ViewerRoutesDeps) {
  const { session, link } = deps;
  const dist = path.resolve(deps.webDist, "audience");
  const viewsOf = cachedViews(deps.views);
  const shownExchanges = new ShownExchanges({ session, trace: (id) => summariesOf(link, deps.live, id) });
  const readable = async (raw: string): Promise<Exchange | null> => {
    const id = IdSchema.safeParse(raw);
    // Checked before anything is loaded: an unshown exchange costs what a missing one does.
    if (!id.success || (await shownExchanges.traceOf(id.data)) === null) return null;
    // In flight first, then the store (as the recorder's own API reads: one or the other has it).
    const x = (await deps.live?.exchange(id.data)) ?? (await link.call("exchange", id.data));
    return x && session.mayRead(x.traceId) ? x : null;
  };
  const P = "/j/:code";
  const viewer = new Hono()
    .get(`${P}/`, async (c) =>
      c.body(await readFile(path.join(dist, "audience.html")), 200, {
        ...HEADERS,
        "Content-Type": "text/html; charset=utf-8",
      }),
    )
    .get(`${P}/assets/:file`, async (c) => {
      const file = c.req.param("file");
      const type = TYPES[path.extname(file)];
      if (!type || !/^[\w.-]+$/.test(file)) return c.json({ error: `no asset ${file}` }, 404, HEADERS);
      const body = await readFile(path.join(dist, "assets", file)).catch(() => null);
      return body
        ? c.body(body, 200, { ...HEADERS, "Content-Type": type })
        : c.json({ error: `no asset ${file}` }, 404, HEADERS);
    })
    .get(`${P}/api/saved`, (c) => c.json({ files: [] }, 200, HEADERS))
    .get(`${P}/api/traces`, async (c) => {
      const traces = (await Promise.all(session.shownTraceIds().map((id) => link.call("traceSummary", id)))).filter(
        (t) => t !== null,
      );
      return c.json({ traces, nextCursor: null }, 200, HEADERS);
    })
    .get(`${P}/api/traces/:id`, async (c) => {
      const id = c.req.param("id");
      const trace = session.mayRead(id)
        ? ((await link.call("trace", id)) ?? (await deps.live?.trace(id)) ?? null)
        : null;
      return trace
        ? c.json({ ...trace, exchanges: trace.exchanges.map(redactedSummary) }, 200, HEADERS)
        : missing(c, `trace ${id}`);
    })
    // The file lane: the watch and the changes of a shown trace; the file's content now is the speaker's own.
    .get(`${P}/api/notes`, (c) =>
      c.json({ watch: viewerWatch(deps.notes?.watch), current: null, changes: [] }, 200, HEADERS),
    )
    .get(`${P}/api/notes/changes`, async (c) => {
      const q = NotesChangesQuery.safeParse(c.req.query());
      const trace =
        q.success && session.mayRead(q.data.traceId) ? await link.call("traceSummary", q.data.traceId) : null;
      if (!q.success || !trace) return missing(c, `trace ${c.req.query("traceId") ?? "(none)"}`);
      // Changes no tool call made (hand edits, resets) only within the shown trace's own span: the rest of
      // the file's history was never on the presenter's screen for this trace.
      const from = Math.max(q.data.from, trace.createdAt);
      const to = Math.min(q.data.to, trace.updatedAt);
      const changes = deps.notes ? deps.notes.table.forTrace(q.data.traceId, from, to) : [];
      return c.json({ watch: viewerWatch(deps.notes?.watch), changes }, 200, HEADERS);
    })
    .get(`${P}/api/exchanges/:id`, async (c) => {
      const x = await readable(c.req.param("id"));
      return x ? c.json(redactedExchange(x), 200, HEADERS) : missing(c, `exchange ${c.req.param("id")}`);
    })
    .get(`${P}/api/exchanges/:id/views`, async (c) => {
      const x = await readable(c.req.param("id"));
      if (!x) return missing(c, `exchange ${c.req.param("id")}`);
      return c.body(piecesBody(await viewsOf(x)), 200, { ...HEADERS, "Content-Type": "application/json" });
    });

  const app = new Hono()
    .use("*", codeFirst(session))
    .route("/", viewer)
    .all("*", (c) => c.json({ error: `no route ${c.req.path} on the audience view` }, 404, HEADERS));
  app.onError((err, c) => {
    deps.logger.error({ err, path: c.req.path }, "audience request failed");
    return c.json({ error: "the audience view could not answer this request" }, 500, HEADERS);
  });
  return app;
}
