/** `/api/traces`: list, one trace, rename, delete, export, save to TRACES_DIR. */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { RenameTraceSchema, TraceListQuerySchema } from "@hopscope/shared/trace/api";
import type { RecordingLink } from "../../link/calls";
import type { InFlight } from "../in-flight";
import type { Announce } from "../../link/frames";
import { createTraceBundle } from "../export/hopscope";
import { ExportFormatSchema, exportTrace, traceSlug } from "../export/trace-file";
import { exportHtml } from "../export/html";
import type { ExchangeViewBuilder } from "../views/exchange-views";
import { jsonBody, notFound } from "./errors";
import { parseCursor } from "./cursor";
import type { NotesTable } from "../notes/notes-table";
import { withNotes } from "../notes/notes-bundle";

export interface TracesDeps {
  link: RecordingLink;
  inFlight: InFlight;
  announce: Announce;
  tracesDir: string;
  /** For the HTML export: the derived views, and the built UI that holds the page template. */
  views: ExchangeViewBuilder;
  webDist: string;
  /** The notes-file changes, written into exported and saved files. */
  notes: { table: NotesTable };
}

export function tracesRoutes(deps: TracesDeps) {
  const { link } = deps;
  const bundleOf = async (id: string) => {
    const trace = (await link.call("trace", id)) ?? notFound(`no trace ${id}; list traces with GET /api/traces`);
    return withNotes(createTraceBundle(trace, await link.call("exchanges", id)), deps.notes.table);
  };
  return new Hono()
    .get("/", async (c) => {
      const q = TraceListQuerySchema.parse(c.req.query());
      return c.json(await link.call("listTraces", q.limit, q.cursor === undefined ? null : parseCursor(q.cursor)));
    })
    .get("/:id", async (c) => {
      const id = c.req.param("id");
      const stored = await link.call("trace", id);
      if (!stored)
        return c.json((await deps.inFlight.trace(id)) ?? notFound(`no trace ${id}; list traces with GET /api/traces`));
      // Exchanges still in flight (the /agent call, a streaming chat) are not stored yet; show them too.
      const live = (await deps.inFlight.exchanges()).filter((e) => e.traceId === id);
      if (live.length === 0) return c.json(stored);
      return c.json({
        ...stored,
        exchanges: [...stored.exchanges, ...live].sort((a, b) => a.seq - b.seq || a.id - b.id),
      });
    })
    .patch("/:id", async (c) => {
      const { name } = RenameTraceSchema.parse(await jsonBody(c));
      const id = c.req.param("id");
      const summary = (await link.call("rename", id, name)) ?? notFound(`no trace ${id}`);
      deps.announce({ type: "trace.updated", trace: summary, links: await link.call("links", id) });
      return c.json(summary);
    })
    .delete("/:id", async (c) => {
      const id = c.req.param("id");
      if (!(await link.call("delete", id))) notFound(`no trace ${id}`);
      deps.announce({ type: "trace.deleted", traceId: id });
      return c.body(null, 204);
    })
    .get("/:id/export", async (c) => {
      const raw = c.req.query("format") ?? "hopscope";
      const format = ExportFormatSchema.safeParse(raw);
      if (!format.success && raw !== "html")
        throw new HTTPException(400, {
          message: `unknown format "${raw}"; use one of ${[...ExportFormatSchema.options, "html"].join(", ")}`,
        });
      const bundle = await bundleOf(c.req.param("id"));
      const file = format.success
        ? exportTrace(bundle, format.data)
        : await exportHtml(bundle, {
            webDist: deps.webDist,
            views: (x) => deps.views.build(x),
          });
      return c.body(file.body, 200, {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
      });
    })
    .post("/:id/save", async (c) => {
      const id = c.req.param("id");
      const bundle = await bundleOf(id);
      await mkdir(deps.tracesDir, { recursive: true });
      // Saving again overwrites the trace's own file; the id suffix keeps two traces of the same question apart.
      const file = bundle.trace.savedAs ?? `${traceSlug(bundle)}-${id.slice(0, 8)}.hopscope.json`;
      await writeFile(path.join(deps.tracesDir, file), exportTrace(bundle, "hopscope").body);
      await link.call("setSavedAs", id, file);
      const summary = await link.call("traceSummary", id);
      if (summary) deps.announce({ type: "trace.updated", trace: summary, links: await link.call("links", id) });
      return c.json({ savedAs: file });
    });
}
