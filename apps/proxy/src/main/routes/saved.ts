/** `/api/saved`: the trace files in TRACES_DIR, and loading one into the database. */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SavedFile } from "@hopscope/shared/trace/api";
import { importHopscope } from "../export/hopscope";
import { importBundle, type ImportDeps } from "../importer";
import { importNotes } from "../notes/notes-bundle";
import type { NotesTable } from "../notes/notes-table";
import type { Logger } from "../../logger";

const SUFFIX = ".hopscope.json";

export function savedRoutes(deps: ImportDeps & { tracesDir: string; logger: Logger; notes: { table: NotesTable } }) {
  return new Hono()
    .get("/", async (c) => {
      const names = await listFiles(deps.tracesDir);
      const files: SavedFile[] = [];
      for (const file of names) {
        try {
          const bundle = importHopscope(await readFile(path.join(deps.tracesDir, file), "utf8"));
          files.push({ file, name: bundle.trace.name, description: null, exchangeCount: bundle.exchanges.length });
        } catch (err) {
          // One bad file must not hide the others; it is logged, and loading it gives the full error.
          deps.logger.warn({ file, err: (err as Error).message }, "unreadable trace file in TRACES_DIR");
        }
      }
      return c.json({ files });
    })
    .post("/:file/load", async (c) => {
      const file = c.req.param("file");
      if (file !== path.basename(file) || !file.endsWith(SUFFIX)) {
        throw new HTTPException(400, {
          message: `"${file}" is not a trace file name; use a name from GET /api/saved (ending in ${SUFFIX})`,
        });
      }
      let text: string;
      try {
        text = await readFile(path.join(deps.tracesDir, file), "utf8");
      } catch (err) {
        throw new HTTPException(404, {
          message: `no file ${file} in the traces folder; list them with GET /api/saved`,
          cause: err,
        });
      }
      const bundle = importHopscope(text);
      const summary = await importBundle(bundle, deps);
      importNotes(deps.notes.table, bundle, await deps.link.call("trace", summary.id));
      return c.json(summary);
    });
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.endsWith(SUFFIX)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}
