/**
 * The notes file in the open trace: its changes (the trace's own, linked to the tools/call that caused
 * them, plus uncaused ones — hand edits, resets — made while it ran), kept live from `notes.changed`
 * frames; whether the recorder can see the file at all; and the presenter's reset.
 */
import { computed, createModel, effect, signal } from "@preact/signals";
import {
  NotesChangesSchema,
  NotesResetResultSchema,
  NotesStatusSchema,
  type NotesChange,
  type NotesSetName,
  type NotesWatch,
} from "@hopscope/shared/trace/notes-file";
import type { Body, ServerFrame } from "@hopscope/shared/trace/schemas";
import { getJson, send } from "../api/http";
import type { TraceModel } from "./TraceModel";
import { minOf, maxOf } from "@hopscope/shared/json/extent";

export const NotesModel = createModel((trace: TraceModel) => {
  const watch = signal<NotesWatch | null>(null);
  /** The file's content as last seen (null: none, or not visible). */
  const current = signal<Body | null>(null);
  const changes = signal<NotesChange[]>([]);
  const error = signal<string | null>(null);
  const resetting = signal(false);
  const resetNotice = signal<string | null>(null);
  /** The latest change made with no tool call running outside the open trace (a hand edit between runs). */
  const outside = signal<NotesChange | null>(null);

  /** The open trace's span, epoch ms: its first exchange to its last (open-ended while in flight). */
  const span = computed(() => {
    const xs = trace.list.value;
    if (xs.length === 0) return null;
    const from = minOf(xs.map((x) => x.timings.start));
    const live = xs.some((x) => x.timings.end === null);
    const to = live ? Number.MAX_SAFE_INTEGER : maxOf(xs.map((x) => x.timings.end ?? x.timings.start));
    return { from, to };
  });

  function belongs(c: NotesChange): boolean {
    if (c.traceId !== null) return c.traceId === trace.traceId.value;
    const s = span.value;
    return s !== null && c.at >= s.from && c.at <= s.to;
  }

  function add(list: readonly NotesChange[]): void {
    const byId = new Map(changes.value.map((c) => [c.id, c]));
    for (const c of list) byId.set(c.id, c);
    changes.value = [...byId.values()].sort((a, b) => a.id - b.id);
  }

  async function loadStatus(): Promise<void> {
    try {
      const status = await getJson("/api/notes", NotesStatusSchema);
      watch.value = status.watch;
      current.value = status.current;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      console.error("[hopscope] /api/notes failed", e);
    }
  }

  // A trace's stored changes load when it opens (and again once it is stored, to pick up a gap).
  effect(() => {
    const id = trace.traceId.value;
    const state = trace.loadState.value;
    changes.value = [];
    if (!id || state !== "ready") return;
    const s = span.peek();
    const q = `traceId=${encodeURIComponent(id)}&from=${s?.from ?? 0}&to=${s && s.to !== Number.MAX_SAFE_INTEGER ? s.to : Date.now() + 60_000}`;
    getJson(`/api/notes/changes?${q}`, NotesChangesSchema).then(
      (r) => {
        if (trace.traceId.value !== id) return;
        watch.value = r.watch;
        add(r.changes.filter(belongs));
      },
      (e: unknown) => {
        error.value = e instanceof Error ? e.message : String(e);
        console.error("[hopscope] loading the notes changes failed", e);
      },
    );
  });

  function applyFrame(frame: ServerFrame): void {
    if (frame.type !== "notes.changed") return;
    current.value = frame.change.after;
    if (belongs(frame.change)) add([frame.change]);
    else if (frame.change.cause.kind === "none") outside.value = frame.change;
  }

  async function reset(set: NotesSetName): Promise<void> {
    resetting.value = true;
    resetNotice.value = null;
    try {
      const r = await send("POST", "/api/notes/reset", { set }, NotesResetResultSchema);
      resetNotice.value = r?.change ? `Notes reset to “${set}”` : `The notes already held “${set}”`;
      outside.value = null; // a hand edit before the reset is history now
      error.value = null;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      console.error("[hopscope] notes reset failed", e);
    } finally {
      resetting.value = false;
    }
  }

  void loadStatus();

  return { watch, current, changes, error, resetting, resetNotice, outside, applyFrame, reset, loadStatus };
});
export type NotesModel = InstanceType<typeof NotesModel>;
