/** `POST /api/import`: a trace file as the raw body (hopscope or HAR, detected) → a new imported trace. */
import { Hono } from "hono";
import { importBundle, type ImportDeps } from "../importer";
import { importTraceFile } from "../export/trace-file";

export function importRoutes(deps: ImportDeps) {
  return new Hono().post("/", async (c) => c.json(await importBundle(importTraceFile(await c.req.text()).bundle, deps)));
}
