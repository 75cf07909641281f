/**
 * The data source of a shared trace page: one trace embedded in the page (SharedTrace, see
 * shared/src/trace/share.ts), answered as the recorder's read-only API would answer it, validated with
 * the same schemas. The feed sends one snapshot and nothing after; any change is refused with a message.
 */
import type { NotesChange, NotesWatch } from "@hopscope/shared/trace/notes-file";
import { SharedTraceSchema, SHARED_TRACE_ELEMENT_ID, type SharedTrace } from "@hopscope/shared/trace/share";
import type { z } from "zod";
import { ApiError, validate } from "./http";
import type { DataSource, Feed, FeedHandlers } from "./source";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

/** Reads and validates the document embedded in the page; throws a message a reader can act on. */
export function readEmbeddedTrace(doc: Document): SharedTrace {
  const el = doc.getElementById(SHARED_TRACE_ELEMENT_ID);
  if (!el?.textContent)
    throw new Error(
      `this page has no embedded trace (no element with id "${SHARED_TRACE_ELEMENT_ID}"): export one with \`hopscope export <id> --format html\``,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(el.textContent);
  } catch (cause) {
    throw new Error(`the embedded trace is not valid JSON (${String(cause)}): export the trace again`, { cause });
  }
  const parsed = SharedTraceSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `the embedded trace does not match this viewer (${formatZodIssues(parsed.error, { whole: "trace", max: 3 })}): export it again with this hopscope`,
    );
  return parsed.data;
}

const READ_ONLY =
  "this is a shared, read-only trace file: open it in hopscope (import the .hopscope.json) to change it";

/**
 * The file lane of a shared page: the bundle carries its trace's changes but not the recorder's watch,
 * so the page says it watched the file the changes name (a trace with none: the file lane, empty). The
 * content "now" is the file as the trace left it. `maxBytes` is not in the bundle and no view reads it.
 */
function notesAnswers(trace: SharedTrace["bundle"]["trace"], notes: readonly NotesChange[]) {
  const file = notes.at(-1)?.file ?? "data/db";
  const watch: NotesWatch = { state: "watching", file, path: file, maxBytes: 0 };
  return {
    status: () => ({ watch, current: notes.at(-1)?.after ?? null, changes: notes }),
    changes: (query: string) => ({
      watch,
      changes: new URLSearchParams(query).get("traceId") === trace.id ? notes : [],
    }),
  };
}

export function staticSource(shared: SharedTrace): DataSource {
  const { trace, exchanges } = shared.bundle;
  const { exchanges: _summaries, links: _links, ...summary } = trace;
  const byId = new Map(exchanges.map((x) => [x.id, x]));
  const notes = notesAnswers(trace, shared.bundle.notes ?? []);
  const routes: [RegExp, (m: RegExpExecArray) => unknown][] = [
    [/^\/api\/traces(\?.*)?$/, () => ({ traces: [summary], nextCursor: null })],
    [/^\/api\/traces\/([^/?]+)$/, (m) => (decodeURIComponent(m[1] as string) === trace.id ? trace : undefined)],
    [/^\/api\/exchanges\/(\d+)$/, (m) => byId.get(Number(m[1]))],
    [
      // The embedded views are whole (tokens and comparisons in): whatever `?omit=` asks, they are answered so.
      /^\/api\/exchanges\/(\d+)\/views(?:\?.*)?$/,
      (m) => (byId.has(Number(m[1])) ? (shared.views[m[1] as string] ?? {}) : undefined),
    ],
    [/^\/api\/notes$/, () => notes.status()],
    [/^\/api\/notes\/changes\?(.*)$/, (m) => notes.changes(m[1] as string)],
    [/^\/api\/saved$/, () => ({ files: [] })],
    [
      /^\/api\/config$/,
      () => ({ agentTapUrl: "", modelTapUrl: "", mcpTapUrl: "", simulated: summary.simulated ?? null, lesson: null }),
    ],
  ];
  return {
    kind: "file",
    getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
      for (const [re, answer] of routes) {
        const m = re.exec(path);
        if (!m) continue;
        const value = answer(m);
        if (value === undefined) break;
        return Promise.resolve(validate(schema, value, `the embedded ${path}`));
      }
      return Promise.reject(new ApiError(`${path} is not in this shared trace file`, 404));
    },
    send(method: string, path: string): Promise<never> {
      return Promise.reject(new ApiError(`${method} ${path}: ${READ_ONLY}`, 405));
    },
    openFeed(_url: string, handlers: FeedHandlers): Feed {
      // The file is the whole trace: one snapshot says so, and nothing more will come.
      queueMicrotask(() => handlers.onFrame({ type: "snapshot", seq: 0, traces: [summary], inFlight: [] }));
      return {
        send: () => undefined,
        close: () => undefined,
      };
    },
  };
}
