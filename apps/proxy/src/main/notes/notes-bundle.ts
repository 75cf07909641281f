/**
 * The notes-file changes travel with a trace file (`notes` in the hopscope bundle), so a saved or
 * curated trace shows its file lane when it is loaded again: written on export and save, stored again
 * on import under the imported trace (exchange ids mapped by position: both lists are in trace order).
 */
import type { TraceBundle } from "@hopscope/shared/trace/bundle";
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import type { Trace } from "@hopscope/shared/trace/schemas";
import type { NotesTable } from "./notes-table";
import { minOf, maxOf } from "@hopscope/shared/json/extent";

/** A trace's changes: its own, and the uncaused ones made while it ran. */
export function notesOfTrace(table: NotesTable, trace: Trace): NotesChange[] {
  const times = trace.exchanges.flatMap((x) => [x.timings.start, x.timings.end ?? x.timings.start]);
  if (times.length === 0) return [];
  return table.forTrace(trace.id, minOf(times), maxOf(times));
}

/** The bundle with its trace's notes changes added (none: unchanged, so older readers see the same file). */
export function withNotes(bundle: TraceBundle, table: NotesTable): TraceBundle {
  const notes = notesOfTrace(table, bundle.trace);
  return notes.length === 0 ? bundle : { ...bundle, notes };
}

/** Stores a bundle's notes changes under the trace it was imported as. */
export function importNotes(table: NotesTable, bundle: TraceBundle, imported: Trace | null): void {
  if (!bundle.notes?.length || !imported) return;
  const idMap = new Map(bundle.trace.exchanges.map((x, i) => [x.id, imported.exchanges[i]?.id]));
  let id = table.nextId();
  for (const c of bundle.notes) {
    const cause =
      c.cause.kind === "tool-call"
        ? { ...c.cause, traceId: imported.id, exchangeId: idMap.get(c.cause.exchangeId) ?? -1 }
        : c.cause;
    table.insert({ ...c, id: id++, cause, traceId: imported.id });
  }
}
