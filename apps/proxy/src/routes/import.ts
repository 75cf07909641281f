/**
 * `POST /api/import`: a trace file as the raw body (hopscope or HAR, detected) → a new imported trace.
 * Files over MAX_IMPORT_BYTES get 413 before they are read whole; secrets are redacted by the readers.
 */
import { Hono } from "hono";
import { importBundle, type ImportDeps } from "../importer";
import { importTraceFile } from "../export/trace-file";
import { cappedText } from "./errors";

export function importRoutes(deps: ImportDeps & { maxImportBytes: number }) {
  return new Hono().post("/", async (c) => c.json(await importBundle(importTraceFile(await cappedText(c, deps.maxImportBytes, "MAX_IMPORT_BYTES")).bundle, deps)));
}
