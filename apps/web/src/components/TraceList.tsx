/** The traces list: live traces (newest first), saved files under traces/, and importing a file. */
import type { JSX } from "preact";
import type { SavedFile } from "@hopscope/shared/trace/api";
import type { TraceSummary } from "@hopscope/shared/trace/schemas";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./TraceList.module.css";

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function TraceItem({ t, active }: { t: TraceSummary; active: boolean }) {
  const { trace, traces } = useApp();
  const recording = traces.inFlight.value.has(t.id);
  function onClick(): void {
    void trace.open(t.id, 1);
  }
  return (
    <li>
      <button type="button" class={`${s.item} ${active ? s.active : ""}`} onClick={onClick} aria-current={active ? "true" : undefined} title={t.name}>
        <span class={s.name}>
          {recording ? <i class={s.rec} title="Recording: exchanges still in flight" /> : null}
          {t.name}
        </span>
        <span class={s.meta}>
          {timeOf(t.createdAt)} · {t.exchangeCount} exchange{t.exchangeCount === 1 ? "" : "s"}
          {t.errorCount ? <b class={s.err}> · {t.errorCount} error{t.errorCount === 1 ? "" : "s"}</b> : null}
          {t.source === "imported" ? " · imported" : ""}
          {t.simulated ? " · stand-in" : ""}
          {t.savedAs ? " · saved" : ""}
        </span>
      </button>
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

export function TraceList() {
  const { traces, trace } = useApp();
  const list = traces.traces.value;
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
  return (
    <nav class={s.list} aria-label="Traces">
      <h2 class={s.heading}>Traces</h2>
      {traces.error.value ? <p class={s.error} role="alert">{traces.error.value}</p> : null}
      {list.length === 0 ? (
        <p class={s.empty}>{traces.loaded.value ? "No traces yet. Ask the agent something above." : "Loading…"}</p>
      ) : (
        <ul class={s.items} data-testid="trace-list">
          {list.map((t) => (
            <TraceItem key={t.id} t={t} active={t.id === trace.traceId.value} />
          ))}
        </ul>
      )}
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
