/** The open trace's bar: its name (click to rename), save, export, delete, replay and follow-the-data. */
import { useSignal, type Signal } from "@preact/signals";
import type { JSX } from "preact";
import { isStdioExchange } from "@hopscope/shared/trace/stdio-ingest";
import { isReadOnly } from "../api/source";
import { groupingWords } from "../models/grouping";
import { EXPORT_FORMATS, exportUrl } from "../models/TracesModel";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import { ReplayControls } from "./ReplayControls";
import s from "./TraceToolbar.module.css";

export function TraceToolbar() {
  const { trace, ui } = useApp();
  const notice = useSignal<string | null>(null);
  const traceId = trace.traceId.value;
  if (!traceId) return null;
  // A shared file or an audience viewer shows the trace; nothing here may change it.
  const readOnly = isReadOnly();

  return (
    <div class={s.bar}>
      <div class={s.row}>
        <TraceName traceId={traceId} readOnly={readOnly} />
        {readOnly ? null : <TraceActions traceId={traceId} notice={notice} />}
      </div>
      <TraceSummary />
      {notice.value ? (
        <p class={s.notice} role="status">
          {notice.value}
        </p>
      ) : null}
      <div class={s.row}>
        <ReplayControls />
        <input
          id="follow-input"
          class={s.follow}
          placeholder="Follow, e.g. buy milk  ( / )"
          value={ui.followQuery.value}
          onInput={(event) => ui.follow(event.currentTarget.value)}
          aria-label="Follow a value across hops"
        />
      </div>
    </div>
  );
}

/** The trace's name; a click turns it into a rename form (unless the trace is read-only). */
function TraceName({ traceId, readOnly }: { traceId: string; readOnly: boolean }) {
  const { trace, traces } = useApp();
  const editing = useSignal(false);
  const name = traces.traces.value.find((x) => x.id === traceId)?.name ?? trace.summary.value?.name ?? "Loading…";
  function onRename(event: JSX.TargetedEvent<HTMLFormElement>): void {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("name");
    if (input instanceof HTMLInputElement && input.value.trim()) void traces.rename(traceId, input.value.trim());
    editing.value = false;
  }
  if (readOnly)
    return (
      <h1 class={s.name} data-testid="trace-name">
        {name}
      </h1>
    );
  if (editing.value)
    return (
      <form class={s.rename} onSubmit={onRename}>
        <input name="name" defaultValue={name} class={s.nameInput} aria-label="Trace name" autoFocus />
        <Button type="submit">Rename</Button>
      </form>
    );
  return (
    <h1 class={s.name} title="Click to rename" onClick={() => (editing.value = true)} data-testid="trace-name">
      {name}
    </h1>
  );
}

/** Save (saying where it went in `notice`), the export formats, delete. */
function TraceActions({ traceId, notice }: { traceId: string; notice: Signal<string | null> }) {
  const { trace, traces } = useApp();
  async function onSave(): Promise<void> {
    const savedAs = await traces.save(traceId);
    notice.value = savedAs ? `Saved as traces/${savedAs}` : null;
  }
  function onDelete(): void {
    if (!confirm(`Delete the trace “${trace.summary.value?.name ?? traceId}”? Saved files under traces/ stay.`)) return;
    void traces.remove(traceId).then(() => trace.close());
  }
  return (
    <div class={s.actions}>
      <Button
        variant="quiet"
        onClick={onSave}
        data-testid="save-trace"
        title="Write this trace to traces/ as a .hopscope.json file"
      >
        Save
      </Button>
      <details class={s.menu}>
        <summary>Export</summary>
        <div class={s.menuItems}>
          {EXPORT_FORMATS.map((f) => (
            <a key={f.format} href={exportUrl(traceId, f.format)} download>
              {f.label}
            </a>
          ))}
        </div>
      </details>
      <Button variant="quiet" onClick={onDelete} title="Delete this trace from the recorder">
        Delete
      </Button>
    </div>
  );
}

/** Hops, exchanges and model calls counted, with what a hop and an exchange are. */
function TraceSummary() {
  const { trace, traces } = useApp();
  const xs = trace.list.value;
  const modelCalls = xs.filter((x) => x.tap === "model").length;
  const stdio = xs.filter(isStdioExchange).length;
  const http = xs.length - stdio;
  const last = trace.hops.value[trace.hops.value.length - 1]?.number ?? 0;
  const t = trace.summary.value;
  const listed = traces.traces.value.find((x) => x.id === trace.traceId.value);
  const grouping = groupingWords(listed?.groupedBy ?? t?.groupedBy);
  return (
    <div class={s.summaryRow}>
      <p class={s.summary} data-testid="trace-summary">
        {last} hops · {http} HTTP exchange{http === 1 ? "" : "s"}
        {stdio > 0 ? ` · ${stdio} stdio message${stdio === 1 ? "" : "s"}` : ""} · the model was in {modelCalls} of them
        {grouping ? <span data-testid="trace-grouping"> · {grouping}</span> : null}
        {trace.loadState.value === "waiting" ? " · recording…" : ""}
      </p>
      <details class={s.vocab} data-testid="vocabulary">
        <summary>hops and exchanges?</summary>A <b>hop</b> is one numbered moment of the story, as the article numbers
        them: an MCP call is one hop; a model call and your question are two each — the request, then its answer
        (something happens in between). An <b>HTTP exchange</b> is one request with its response. Your question is one
        exchange but two hops (1 and the last); each model call one exchange, two hops. The article's “seven HTTP calls”
        for its eight moments counts your question and its answer as one.
      </details>
    </div>
  );
}
