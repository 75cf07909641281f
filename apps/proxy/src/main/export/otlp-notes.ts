/**
 * The notes-file changes of a trace as OpenTelemetry span events (`hopscope.notes.changed`): each on the
 * `execute_tool` span of the tools/call that caused it, or on the root span when no call of the trace
 * did (a hand edit while it ran, a presenter's reset). An event, not a span: the recorder saw the file
 * change at a moment; it did not see an operation with a duration.
 */
import type { Attributes } from "@opentelemetry/api";
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import { notesCauseText, notesHeadline } from "@hopscope/shared/trace/notes-headline";
import type { NotesChange } from "@hopscope/shared/trace/schemas";

export const NOTES_EVENT = "hopscope.notes.changed";

export const NOTES_ATTR = {
  file: "hopscope.notes.file",
  event: "hopscope.notes.event",
  headline: "hopscope.notes.headline",
  destructive: "hopscope.notes.destructive",
  beforeSize: "hopscope.notes.before_size",
  afterSize: "hopscope.notes.after_size",
  cause: "hopscope.notes.cause",
  causeText: "hopscope.notes.cause_text",
  toolName: "gen_ai.tool.name",
  resetSet: "hopscope.notes.reset_set",
} as const;

export interface NotesEvent {
  at: number;
  attributes: Attributes;
}

function attributesOf(c: NotesChange): Attributes {
  const { headline, destructive } = notesHeadline(c);
  return {
    [NOTES_ATTR.file]: c.file,
    [NOTES_ATTR.event]: c.event,
    [NOTES_ATTR.headline]: headline,
    [NOTES_ATTR.destructive]: destructive,
    // Sizes of the file's content before and after, in bytes (absent when there was no file).
    ...(c.before ? { [NOTES_ATTR.beforeSize]: c.before.size } : {}),
    ...(c.after ? { [NOTES_ATTR.afterSize]: c.after.size } : {}),
    [NOTES_ATTR.cause]: c.cause.kind,
    [NOTES_ATTR.causeText]: notesCauseText(c),
    ...(c.cause.kind === "tool-call" && c.cause.toolName ? { [NOTES_ATTR.toolName]: c.cause.toolName } : {}),
    ...(c.cause.kind === "reset" ? { [NOTES_ATTR.resetSet]: c.cause.set } : {}),
  };
}

/** The events per causing exchange id of the bundle; `root` holds those no exchange of the bundle caused. */
export function notesEvents(bundle: TraceBundle): { byExchange: Map<number, NotesEvent[]>; root: NotesEvent[] } {
  const ids = new Set(bundle.exchanges.map((x) => x.id));
  const byExchange = new Map<number, NotesEvent[]>();
  const root: NotesEvent[] = [];
  for (const c of bundle.notes ?? []) {
    const event = { at: c.at, attributes: attributesOf(c) };
    const id = c.cause.kind === "tool-call" && ids.has(c.cause.exchangeId) ? c.cause.exchangeId : null;
    if (id === null) root.push(event);
    else byExchange.set(id, [...(byExchange.get(id) ?? []), event]);
  }
  return { byExchange, root };
}
