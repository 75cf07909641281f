/**
 * The notes file the MCP server owns, as the recorder sees it:
 *   GET  /api/notes                               → NotesStatus (the watch, the content now, latest changes)
 *   GET  /api/notes/changes?traceId=…&from=…&to=… → a trace's changes, and the uncaused ones in its span
 *   POST /api/notes/reset { set? }                → the change it made (or null when nothing changed)
 * The reset changes state: the local guard in front of /api refuses foreign hosts and origins, and
 * here a body that is not JSON by its Content-Type is refused too (a form post cannot reset a demo).
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { NotesResetSchema, type NotesStatus } from "@hopscope/shared/trace/notes-file";
import { contentOf } from "../notes/file-state";
import type { NotesService } from "../notes/notes-service";
import { ResetRefused, resetNotes } from "../notes/notes-reset";
import { jsonBody } from "./errors";

const ChangesQuery = z.object({
  traceId: z.string().min(1, "traceId is required: /api/notes/changes?traceId=<trace id>"),
  from: z.coerce.number().default(0),
  to: z.coerce.number().default(Number.MAX_SAFE_INTEGER),
});

export function notesRoutes(notes: NotesService) {
  return new Hono()
    .get("/", (c) => {
      const state = notes.watcher?.current();
      const status: NotesStatus = {
        watch: notes.watch,
        current: state ? contentOf(state) : null,
        changes: notes.table.latest(50),
      };
      return c.json(status);
    })
    .get("/changes", (c) => {
      const q = ChangesQuery.parse(c.req.query());
      return c.json({ watch: notes.watch, changes: notes.table.forTrace(q.traceId, q.from, q.to) });
    })
    .post("/reset", async (c) => {
      const type = c.req.header("content-type") ?? "";
      if (!/^application\/json\s*(;|$)/i.test(type)) {
        throw new HTTPException(415, {
          message: `POST /api/notes/reset needs Content-Type: application/json (got ${type ? `"${type}"` : "none"}); send {"set":"empty"}`,
        });
      }
      const { set } = NotesResetSchema.parse(await jsonBody(c));
      if (!notes.watcher || !notes.file) {
        const why =
          notes.watch.state === "remote"
            ? `the MCP server is at ${notes.watch.upstream}, so its notes file is not on this machine`
            : "NOTES_FILE=off";
        throw new HTTPException(409, {
          message: `cannot reset the notes: ${why}; set NOTES_FILE to the MCP server's notes file`,
        });
      }
      try {
        const change = await resetNotes({ file: notes.file, set, watcher: notes.watcher, busy: notes.busy });
        return c.json({ set, change });
      } catch (err) {
        if (err instanceof ResetRefused) throw new HTTPException(409, { message: err.message });
        throw new HTTPException(500, {
          message: `could not reset ${notes.watch.state === "watching" ? notes.watch.file : "the notes file"}: ${(err as Error).message}`,
          cause: err,
        });
      }
    });
}
