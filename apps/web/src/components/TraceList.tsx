/**
 * The traces list for real use: search; live traces, each with its question, time, outcome and source, a
 * conversation's turns grouped under it; imported traces apart; the saved files under traces/; importing a
 * file. Resizable: drag its right edge (or ← → on the edge).
 */
import type { JSX } from "preact";
import type { SavedFile } from "@hopscope/shared/trace/api";
import type { TraceSummary } from "@hopscope/shared/trace/schemas";
import type { TraceGroup } from "../models/trace-groups";
import { lastLossAt } from "../models/StorageModel";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./TraceList.module.css";

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function TraceItem({ t, active, turn }: { t: TraceSummary; active: boolean; turn?: number | undefined }) {
  const { trace, traces } = useApp();
  const recording = traces.inFlight.value.has(t.id);
  const f = traces.facts.value.get(t.id);
  const outcome = recording ? "recording" : f?.outcome;
  function onClick(): void {
    void trace.open(t.id, 1);
  }
  return (
    <li>
      <button
        type="button"
        class={`${s.item} ${active ? s.active : ""}`}
        onClick={onClick}
        aria-current={active ? "true" : undefined}
        title={f?.question ?? t.name}
        data-trace={t.id}
      >
        <span class={s.name}>
          {recording ? <i class={s.rec} title="Recording: exchanges still in flight" /> : null}
          {turn !== undefined ? <span class={s.turn}>turn {turn}</span> : null}
          {t.name}
        </span>
        <span class={s.meta}>
          <span>{timeOf(t.createdAt)}</span>
          {outcome ? (
            <span class={s.outcome} data-outcome={outcome}>
              {outcome}
            </span>
          ) : null}
          <span class={s.source}>{t.source === "imported" ? "imported" : "live"}</span>
          {t.savedAs ? <span class={s.source}>saved</span> : null}
          {t.simulated ? <span class={s.dim}>stand-in</span> : null}
          <span class={s.dim}>
            {t.exchangeCount} exchange{t.exchangeCount === 1 ? "" : "s"}
          </span>
        </span>
      </button>
    </li>
  );
}

function Group({ g }: { g: TraceGroup }) {
  const { trace } = useApp();
  const id = trace.traceId.value;
  if (g.turns.length === 1) return <TraceItem t={g.turns[0] as TraceSummary} active={g.turns[0]?.id === id} />;
  return (
    <li class={s.conversation} data-conversation={g.conversationId}>
      <span class={s.convHead} title={`conversation ${g.conversationId ?? ""}`}>
        conversation · {g.turns.length} turns
      </span>
      <ul class={s.items}>
        {g.turns.map((t, i) => (
          <TraceItem key={t.id} t={t} active={t.id === id} turn={i + 1} />
        ))}
      </ul>
    </li>
  );
}

function SavedItem({ f }: { f: SavedFile }) {
  const { traces, trace } = useApp();
  async function onClick(): Promise<void> {
    const t = await traces.openSaved(f.file);
    if (t) void trace.open(t.id, 1);
  }
  return (
    <li>
      <button type="button" class={s.item} onClick={onClick} title={f.description ?? f.file}>
        <span class={s.name}>{f.name}</span>
        <span class={s.meta}>
          {f.file} · {f.exchangeCount} exchanges
        </span>
      </button>
    </li>
  );
}

function ResizeHandle() {
  const { ui } = useApp();
  function onPointerDown(event: JSX.TargetedPointerEvent<HTMLDivElement>): void {
    const el = event.currentTarget;
    el.setPointerCapture(event.pointerId);
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 14;
    const left = (el.parentElement?.getBoundingClientRect().left ?? 0) / rem;
    const move = (e: PointerEvent): void => ui.setListWidth(e.clientX / rem - left);
    const up = (): void => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
  }
  function onKeyDown(event: JSX.TargetedKeyboardEvent<HTMLDivElement>): void {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    event.stopPropagation();
    ui.setListWidth(ui.listWidth.value + (event.key === "ArrowRight" ? 1 : -1));
  }
  return (
    <div
      class={s.handle}
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the traces list"
      aria-valuenow={ui.listWidth.value}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      data-testid="list-resize"
    />
  );
}

/** Narrows the list to the traces whose question holds these words. */
function SearchBox() {
  const { traces } = useApp();
  function onSearch(event: JSX.TargetedEvent<HTMLInputElement>): void {
    traces.query.value = event.currentTarget.value;
  }
  return (
    <input
      class={s.search}
      type="search"
      placeholder="Search questions…"
      value={traces.query.value}
      onInput={onSearch}
      aria-label="Search traces"
      data-testid="trace-search"
    />
  );
}

/** What the recorder forwarded but could not keep: the traces listed here may miss those exchanges. */
function NotStored() {
  const h = useApp().storage.health.value;
  if (!h || h.notStored === 0) return null;
  return (
    <p class={s.lost} role="status" data-testid="traces-not-stored">
      {h.notStored.toLocaleString("en")} exchange{h.notStored === 1 ? " was" : "s were"} forwarded but not stored: the
      traces here may miss {h.notStored === 1 ? "it" : "them"}.{lastLossAt(h.lastNotStoredAt)}
    </p>
  );
}

export function TraceList() {
  const { traces, trace } = useApp();
  const { live, imported } = traces.groups.value;
  async function onImport(event: JSX.TargetedEvent<HTMLInputElement>): Promise<void> {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = "";
    if (!file) return;
    const t = await traces.importFile(file);
    if (t) void trace.open(t.id, 1);
  }
  function loadMore(): void {
    void traces.loadPage(traces.nextCursor.value ?? undefined);
  }
  const total = traces.traces.value.length;
  return (
    <nav class={s.list} aria-label="Traces">
      <ResizeHandle />
      <h2 class={s.heading}>Traces</h2>
      <NotStored />
      {total > 0 ? <SearchBox /> : null}
      {traces.error.value ? (
        <p class={s.error} role="alert">
          {traces.error.value}
        </p>
      ) : null}
      {total === 0 ? (
        <p class={s.empty}>{traces.loaded.value ? "No traces yet. Ask the agent something above." : "Loading…"}</p>
      ) : live.length + imported.length === 0 ? (
        <p class={s.empty}>No trace matches “{traces.query.value}”.</p>
      ) : null}
      <ul class={s.items} data-testid="trace-list">
        {live.map((g) => (
          <Group key={g.key} g={g} />
        ))}
        {imported.length ? (
          <li class={s.section} data-testid="imported-traces">
            <h3 class={s.heading}>Imported</h3>
            <ul class={s.items}>
              {imported.map((g) => (
                <Group key={g.key} g={g} />
              ))}
            </ul>
          </li>
        ) : null}
      </ul>
      {traces.nextCursor.value ? (
        <Button variant="quiet" onClick={loadMore}>
          Older traces…
        </Button>
      ) : null}
      <h2 class={s.heading}>Saved in traces/</h2>
      {traces.saved.value.length === 0 ? (
        <p class={s.empty}>Nothing saved yet. Open a trace and press Save.</p>
      ) : (
        <ul class={s.items} data-testid="saved-list">
          {traces.saved.value.map((f) => (
            <SavedItem key={f.file} f={f} />
          ))}
        </ul>
      )}
      <label class={s.import}>
        Import a file…
        <input type="file" accept=".json,.har,application/json" onChange={onImport} data-testid="import-input" />
      </label>
    </nav>
  );
}
