/**
 * `POST /api/import`: a trace file as the raw body (hopscope or HAR, detected) → a new imported trace.
 * Files over MAX_IMPORT_BYTES get 413 before they are read whole; secrets are redacted by the readers.
 */
import { Hono } from "hono";
import { importBundle, type ImportDeps } from "../importer";
import { importTraceFile } from "../export/trace-file";
import { cappedText } from "./errors";
import { importNotes } from "../notes/notes-bundle";
import type { NotesTable } from "../notes/notes-table";

export function importRoutes(deps: ImportDeps & { maxImportBytes: number; notes: { table: NotesTable } }) {
  return new Hono().post("/", async (c) => {
    const { bundle } = importTraceFile(await cappedText(c, deps.maxImportBytes, "MAX_IMPORT_BYTES"));
    const summary = await importBundle(bundle, deps);
    importNotes(deps.notes.table, bundle, await deps.link.call("trace", summary.id));
    return c.json(summary);
  });
}
