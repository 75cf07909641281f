/**
 * Builds every model of the timeline from one feed URL and wires them together: feed frames fan out to
 * the traces list and the open trace; the URL hash follows the open trace, hop and presenter mode (and
 * back). `dispose()` tears everything down (tests and hot reload).
 */
import { batch, effect } from "@preact/signals";
import type { ServerFrame } from "@hopscope/shared/trace/schemas";
import { AskModel } from "./AskModel";
import { ConnectionModel } from "./ConnectionModel";
import { FollowModel } from "./FollowModel";
import { FollowLiveModel } from "./FollowLiveModel";
import { NotesModel } from "./NotesModel";
import { ReplayModel } from "./ReplayModel";
import { ShapesModel } from "./ShapesModel";
import { StorageModel } from "./StorageModel";
import { formatRoute, parseRoute } from "./route";
import { TraceModel } from "./TraceModel";
import { TracesModel } from "./TracesModel";
import { UiModel } from "./UiModel";

export interface AppContext {
  connection: ConnectionModel;
  traces: TracesModel;
  trace: TraceModel;
  replay: ReplayModel;
  ui: UiModel;
  ask: AskModel;
  follow: FollowModel;
  shapes: ShapesModel;
  followLive: FollowLiveModel;
  notes: NotesModel;
  /** Whether the recorder stores what it forwards (polled once the banner asks). */
  storage: StorageModel;
  dispose(): void;
}

/** Longest a received frame waits before it is shown (one animation frame). */
const FRAME_BATCH_MS = 16;

export function createAppContext(wsUrl: string): AppContext {
  const traces = new TracesModel();
  const trace = new TraceModel();
  const ui = new UiModel();
  const replay = new ReplayModel(trace);
  const followLive = new FollowLiveModel(trace, traces, ui);
  // Asking from the box means "show me": follow again if following was paused.
  const ask = new AskModel(trace, () => followLive.resume());
  const notes = new NotesModel(trace);
  const follow = new FollowModel(trace, ui, notes);
  const shapes = new ShapesModel();
  const storage = new StorageModel();
  // Frames are applied in batches, at most one every FRAME_BATCH_MS: under heavy traffic (hundreds of
  // exchanges a second) the hop list, its numbering and the view then update once per batch rather
  // than once per frame. Order is kept.
  let queued: ServerFrame[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  function flush(): void {
    flushTimer = null;
    const frames = queued;
    queued = [];
    batch(() => {
      for (const frame of frames) {
        traces.applyFrame(frame);
        followLive.beforeFrame(frame);
        trace.applyFrame(frame);
        notes.applyFrame(frame);
      }
    });
  }
  // The lesson and model badges follow the running host: the recorder learns them from each model call.
  let configTimer: ReturnType<typeof setTimeout> | null = null;
  function onFrame(frame: ServerFrame): void {
    if (frame.type === "trace.updated" && !configTimer) {
      configTimer = setTimeout(() => {
        configTimer = null;
        void ask.loadConfig(true);
      }, 1_000);
    }
    queued.push(frame);
    flushTimer ??= setTimeout(flush, FRAME_BATCH_MS);
  }
  const connection = new ConnectionModel(wsUrl, onFrame);

  function applyHash(): void {
    const r = parseRoute(location.hash);
    ui.presenter.value = r.present;
    if (r.traceId && (r.traceId !== trace.traceId.value || r.hop !== trace.selectedHop.value)) {
      if (r.traceId !== trace.traceId.value) void trace.open(r.traceId, r.hop);
      else trace.selectedHop.value = r.hop;
    }
  }
  // A tab chosen on one hop applies to that hop only: the next hop opens on its own lesson tab.
  const stopTabReset = effect(() => {
    void trace.selectedHop.value;
    void trace.traceId.value;
    ui.tab.value = null;
  });
  applyHash();
  window.addEventListener("hashchange", applyHash);
  const stopUrlSync = effect(() => {
    const hash = formatRoute({
      traceId: trace.traceId.value,
      hop: trace.selectedHop.value,
      present: ui.presenter.value,
    });
    // replaceState: stepping through 40 hops should not fill the back button's history.
    if (hash !== location.hash && !(hash === "#/" && location.hash === "")) history.replaceState(null, "", hash);
  });

  void traces.loadPage();
  void traces.loadSaved();
  void ask.loadConfig();

  // In the order they are disposed, each once: the connection first (no more frames), then every model
  // before the models it reads. Listing them once here keeps the context and its teardown in step.
  const models = { connection, storage, notes, followLive, follow, ask, replay, shapes, ui, trace, traces };
  return {
    ...models,
    dispose() {
      window.removeEventListener("hashchange", applyHash);
      if (flushTimer) clearTimeout(flushTimer);
      if (configTimer) clearTimeout(configTimer);
      stopUrlSync();
      stopTabReset();
      for (const m of Object.values(models)) m[Symbol.dispose]();
    },
  };
}
