/**
 * The notes file on the recorder's screen: the MCP server owns `data/db`, the recorder watches it and
 * records every change with its time and, when a `tools/call` was running, the call that caused it.
 * One schema per shape; the proxy validates what it stores and serves, the browser what it receives.
 */
import { z } from "zod";
import { BodySchema, NotesChangeSchema } from "./schemas";

export {
  NotesCauseSchema,
  NotesChangeSchema,
  NotesEventSchema,
  type NotesCause,
  type NotesChange,
  type NotesEvent,
} from "./schemas";

/**
 * Whether the recorder can see the file at all. `remote`: the MCP server is on another machine (its
 * file is not ours to read); `off`: NOTES_FILE=off.
 */
export const NotesWatchSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("watching"), file: z.string(), path: z.string(), maxBytes: z.number().int() }),
  z.object({ state: z.literal("remote"), upstream: z.string() }),
  z.object({ state: z.literal("off") }),
]);
export type NotesWatch = z.infer<typeof NotesWatchSchema>;

/** `GET /api/notes`: the watch, the content now, and the latest changes (newest last). */
export const NotesStatusSchema = z.object({
  watch: NotesWatchSchema,
  current: BodySchema.nullable(),
  changes: z.array(NotesChangeSchema),
});
export type NotesStatus = z.infer<typeof NotesStatusSchema>;

/** `GET /api/notes/changes?traceId=…`: a trace's changes, and those with no cause during its span. */
export const NotesChangesSchema = z.object({ watch: NotesWatchSchema, changes: z.array(NotesChangeSchema) });

/** Named starting sets a presenter can reset the file to (`hopscope notes reset --set NAME`). */
export const NOTES_SETS = {
  empty: "",
  /** The write-instead-of-append lesson's starting note (scripts/record-traces.ts records it too). */
  dentist: "call the dentist\n",
  /** A few notes, so write / update / clear each visibly change something. */
  errands: "call the dentist\nbuy milk\nwater the plants\n",
} as const satisfies Record<string, string>;
export type NotesSetName = keyof typeof NOTES_SETS;
export const NOTES_SET_NAMES = Object.keys(NOTES_SETS) as NotesSetName[];

export const NotesResetSchema = z
  .object({
    set: z
      .enum(NOTES_SET_NAMES as [NotesSetName, ...NotesSetName[]], {
        error: (issue) => `unknown notes set ${JSON.stringify(issue.input)}: use one of ${NOTES_SET_NAMES.join(", ")}`,
      })
      .default("empty"),
  })
  .strict();
export type NotesReset = z.infer<typeof NotesResetSchema>;

/** `POST /api/notes/reset` answers with the set and the change it made (null: the file already held it). */
export const NotesResetResultSchema = z.object({ set: z.string(), change: NotesChangeSchema.nullable() });
