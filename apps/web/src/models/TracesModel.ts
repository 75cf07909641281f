/**
 * The traces list: live traces from the feed (snapshot, then `trace.updated` / `trace.deleted`), older
 * pages over HTTP, the saved files under traces/, and the list actions (rename, delete, save, import,
 * load). Frames and HTTP answers may race (a `trace.updated` can arrive before the page that lists
 * the trace): every update is an upsert by id, so order does not matter.
 */
import { computed, createModel, signal, type Signal } from "@preact/signals";
import { SavedAsSchema, SavedListSchema, TraceListSchema, type SavedFile } from "@hopscope/shared/trace/api";
import { TraceSchema, TraceSummarySchema, type ServerFrame, type TraceSummary } from "@hopscope/shared/trace/schemas";
import { ApiError, getJson, send } from "../api/http";
import { factsOf, groupTraces, type TraceFacts } from "./trace-groups";

export const TracesModel = createModel(() => {
  const { facts, learn } = traceFacts();
  const listed = listedTraces(learn);
  const actions = traceActions(listed);

  // Newest first; an imported copy keeps its original's times, so ties are broken by id (stable order).
  const traces = computed(() =>
    [...listed.byId.value.values()].sort(
      (a, b) => b.createdAt - a.createdAt || b.updatedAt - a.updatedAt || a.id.localeCompare(b.id),
    ),
  );
  /** The list's search text. */
  const query = signal("");
  const groups = computed(() => groupTraces(traces.value, facts.value, query.value));
  /** The traces in the order the list shows them (live groups, then imported): what [ and ] walk. */
  const shown = computed(() => [...groups.value.live, ...groups.value.imported].flatMap((g) => g.turns));

  return {
    traces,
    facts,
    query,
    groups,
    shown,
    inFlight: listed.inFlight,
    loaded: listed.loaded,
    applyFrame: listed.applyFrame,
    ...actions,
  };
});
export type TracesModel = InstanceType<typeof TracesModel>;

/** What each trace was (question, conversation, outcome), learnt from its exchanges in the background. */
function traceFacts() {
  const facts = signal<ReadonlyMap<string, TraceFacts>>(new Map());
  const wanted: string[] = [];
  let learning = 0;
  /** Looks up a trace's exchanges (two at a time, so a page of 50 traces does not flood the recorder). */
  function learn(id: string): void {
    if (!wanted.includes(id)) wanted.push(id);
    while (learning < 2 && wanted.length) {
      const next = wanted.shift() as string;
      learning++;
      getJson(`/api/traces/${encodeURIComponent(next)}`, TraceSchema)
        .then((t) => {
          facts.value = new Map(facts.value).set(t.id, factsOf(t.exchanges));
        })
        .catch((e: unknown) => {
          // The entry stays listed, without its outcome: a trace deleted (or pruned) since it was listed, or a
          // recorder restarting, is not an error of this page.
          if (e instanceof ApiError && e.status === 404) console.warn(`[hopscope] trace ${next} is gone`, e.message);
          else console.warn(`[hopscope] could not read trace ${next} for the list; it shows without its outcome`, e);
        })
        .finally(() => {
          learning--;
          if (wanted.length) learn(wanted[0] as string);
        });
    }
  }
  return { facts, learn };
}

type ListedTraces = ReturnType<typeof listedTraces>;

/** The traces known to this page by id, kept current from the feed, and which of them are still recording. */
function listedTraces(learn: (id: string) => void) {
  const byId = signal<ReadonlyMap<string, TraceSummary>>(new Map());
  const loaded = signal(false);
  /** Exchanges still in flight, per trace: the list marks those traces as recording. */
  const inFlight = signal<ReadonlyMap<string, ReadonlySet<number>>>(new Map());
  /**
   * Traces this page deleted. A `trace.updated` sent before the delete can still be in flight (or in
   * the current frame batch) when the DELETE answers; it must not bring the trace back.
   */
  const deleted = new Set<string>();

  function track(traceId: string, exchangeId: number, active: boolean): void {
    const cur = inFlight.value.get(traceId);
    if (active === Boolean(cur?.has(exchangeId))) return;
    const ids = new Set(cur ?? []);
    if (active) ids.add(exchangeId);
    else ids.delete(exchangeId);
    const next = new Map(inFlight.value);
    if (ids.size) next.set(traceId, ids);
    else next.delete(traceId);
    inFlight.value = next;
    // Its last exchange just ended: learn how the trace ended.
    if (!active && ids.size === 0 && byId.value.has(traceId)) learn(traceId);
  }

  function upsert(list: readonly TraceSummary[]): void {
    const next = new Map(byId.value);
    for (const t of list) {
      if (deleted.has(t.id)) continue;
      const before = next.get(t.id);
      next.set(t.id, t);
      // New, or changed and no longer recording: (re)learn what it was.
      if ((!before || before.updatedAt !== t.updatedAt) && !inFlight.value.get(t.id)?.size) learn(t.id);
    }
    byId.value = next;
  }

  function drop(id: string): void {
    const next = new Map(byId.value);
    next.delete(id);
    byId.value = next;
  }

  function applyFrame(frame: ServerFrame): void {
    if (frame.type === "snapshot") {
      // The snapshot lists the newest traces; keep older pages already loaded beside them.
      upsert(frame.traces);
      const next = new Map<string, Set<number>>();
      for (const x of frame.inFlight) next.set(x.traceId, new Set([...(next.get(x.traceId) ?? []), x.id]));
      inFlight.value = next;
      loaded.value = true;
    } else if (frame.type === "exchange.started") track(frame.exchange.traceId, frame.exchange.id, true);
    else if (frame.type === "exchange.completed") track(frame.exchange.traceId, frame.exchange.id, false);
    else if (frame.type === "trace.updated") upsert([frame.trace]);
    else if (frame.type === "trace.deleted") drop(frame.traceId);
  }

  /** This page deleted the trace: it leaves the list for good. */
  function deletedHere(id: string): void {
    deleted.add(id);
    drop(id);
  }

  return { byId, loaded, inFlight, upsert, deletedHere, applyFrame };
}

/** The list's actions over HTTP (older pages, saved files, rename, delete, save, import); a failure is `error`. */
function traceActions(listed: ListedTraces) {
  const { upsert, loaded } = listed;
  const saved = signal<SavedFile[]>([]);
  const nextCursor = signal<string | null>(null);
  const error = signal<string | null>(null);
  const report = reporter(error);

  async function loadPage(cursor?: string): Promise<void> {
    const q = cursor ? `?limit=50&cursor=${encodeURIComponent(cursor)}` : "?limit=50";
    const page = await report(getJson(`/api/traces${q}`, TraceListSchema));
    if (!page) return;
    upsert(page.traces);
    nextCursor.value = page.nextCursor;
    loaded.value = true;
  }

  async function loadSaved(): Promise<void> {
    const list = await report(getJson("/api/saved", SavedListSchema));
    if (list) saved.value = list.files;
  }

  async function rename(id: string, name: string): Promise<void> {
    const t = await report(send("PATCH", `/api/traces/${encodeURIComponent(id)}`, { name }, TraceSummarySchema));
    if (t) upsert([t]);
  }

  async function remove(id: string): Promise<void> {
    const ok = await report(send("DELETE", `/api/traces/${encodeURIComponent(id)}`, undefined, null).then(() => true));
    if (!ok) return;
    listed.deletedHere(id);
  }

  async function save(id: string): Promise<string | undefined> {
    const r = await report(send("POST", `/api/traces/${encodeURIComponent(id)}/save`, undefined, SavedAsSchema));
    await loadSaved();
    return r?.savedAs;
  }

  async function importFile(file: Blob): Promise<TraceSummary | undefined> {
    const t = await report(send("POST", "/api/import", file, TraceSummarySchema));
    if (t) upsert([t]);
    return t;
  }

  async function openSaved(file: string): Promise<TraceSummary | undefined> {
    const t = await report(send("POST", `/api/saved/${encodeURIComponent(file)}/load`, undefined, TraceSummarySchema));
    if (t) upsert([t]);
    return t;
  }

  return { saved, nextCursor, error, loadPage, loadSaved, rename, remove, save, importFile, openSaved };
}

/** Awaits an action's work: its value clears `error`; a failure sets it (and is logged) and gives undefined. */
function reporter(error: Signal<string | null>) {
  return async function report<T>(work: Promise<T>): Promise<T | undefined> {
    try {
      const value = await work;
      error.value = null;
      return value;
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      console.error("[hopscope] traces action failed", e);
      return undefined;
    }
  };
}

export const EXPORT_FORMATS = [
  { format: "hopscope", label: "hopscope file" },
  { format: "har", label: "HAR" },
  { format: "otlp", label: "OTLP JSON" },
  { format: "mermaid", label: "Mermaid" },
  { format: "html", label: "HTML page (opens offline)" },
] as const;

export function exportUrl(traceId: string, format: (typeof EXPORT_FORMATS)[number]["format"]): string {
  return `/api/traces/${encodeURIComponent(traceId)}/export?format=${format}`;
}
