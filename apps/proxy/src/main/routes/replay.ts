/**
 * `GET /api/replay` → the replays playing now (a page opened mid-replay follows the newest).
 * `POST /api/replay {bundle | traceId, speed?}` → 202 ReplayStarted: plays a saved trace (a trace file's
 * content, or a stored trace) into the live feed as a new trace, at the recorded pace × speed. Answers at
 * once; the frames follow on /ws. The trace's notes-file changes come along (the file's lane in the replay).
 * A bad file is refused with what is wrong in it, and nothing is stored.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { formatBundleError, parseTraceBundle, type TraceBundle } from "@hopscope/shared/trace/bundle";
import { redactBundle } from "@hopscope/shared/trace/redact";
import { ReplayRequestSchema, type ReplayRequest, type ReplaysPlaying } from "@hopscope/shared/trace/replay";
import type { RecordingLink } from "../../link/calls";
import type { Replays } from "../replay/replays";
import { createTraceBundle } from "../export/hopscope";
import { withNotes } from "../notes/notes-bundle";
import type { NotesTable } from "../notes/notes-table";
import { jsonBody, notFound } from "./errors";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

const USAGE =
  'send {"bundle": <the content of a .hopscope.json file>} or {"traceId": "<id from GET /api/traces>"}, with an optional "speed" (0 < speed ≤ 100, 1 = the recorded pace)';

export function replayRoutes(deps: {
  link: RecordingLink;
  replays: Replays;
  maxImportBytes: number;
  notes?: { table: NotesTable };
}) {
  return new Hono()
    .get("/", (c) => c.json({ replays: deps.replays.playing() } satisfies ReplaysPlaying))
    .post("/", async (c) => {
      const req = parseRequest(await jsonBody(c, deps.maxImportBytes, "MAX_IMPORT_BYTES"));
      const bundle =
        "bundle" in req ? readBundle(req.bundle) : await storedBundle(deps.link, req.traceId, deps.notes?.table);
      if (bundle.exchanges.length === 0) {
        throw new HTTPException(400, {
          message: `trace "${bundle.trace.name}" has no exchanges: there is nothing to replay`,
        });
      }
      return c.json(await deps.replays.start(bundle, req.speed, deps.notes?.table), 202);
    });
}

function parseRequest(json: unknown): ReplayRequest {
  const parsed = ReplayRequestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  // Neither shape matched as a whole: zod's "Invalid input" would not help, the two shapes do.
  const union = parsed.error.issues.some((i) => i.code === "invalid_union");
  const detail = union ? "" : `${formatZodIssues(parsed.error, { whole: "body" })}; `;
  throw new HTTPException(400, { message: `not a replay request: ${detail}${USAGE}` });
}

function readBundle(json: unknown): TraceBundle {
  try {
    // Replayed into the live feed and stored: redacted like any import.
    return redactBundle(parseTraceBundle(json));
  } catch (err) {
    throw new HTTPException(400, {
      message: `"bundle" is not a valid hopscope trace file:\n${formatBundleError(err)}`,
      cause: err,
    });
  }
}

async function storedBundle(link: RecordingLink, traceId: string, notes?: NotesTable): Promise<TraceBundle> {
  const trace =
    (await link.call("trace", traceId)) ??
    notFound(`no trace ${traceId}; list traces with GET /api/traces, or replay a file instead`);
  const bundle = createTraceBundle(trace, await link.call("exchanges", traceId));
  return notes ? withNotes(bundle, notes) : bundle;
}
