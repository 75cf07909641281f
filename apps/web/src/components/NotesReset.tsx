/**
 * Reset for demos: set the notes file back to a known state (empty, or a named starting set) before the
 * next run. The recorder writes it (never through a tap), so the reset is no hop in anyone's trace.
 */
import { useSignal } from "@preact/signals";
import type { JSX } from "preact";
import { NOTES_SET_NAMES, NOTES_SETS, type NotesSetName } from "@hopscope/shared/trace/notes-file";
import { viewOf } from "../models/notes-view";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./NotesReset.module.css";

function label(set: NotesSetName): string {
  const lines = NOTES_SETS[set].split("\n").filter(Boolean);
  return set === "empty" ? "empty" : `${set}: ${lines.join(", ")}`;
}

export function NotesReset() {
  const { notes } = useApp();
  const set = useSignal<NotesSetName>("empty");
  const w = notes.watch.value;
  if (w && w.state !== "watching") return null;
  function onChange(event: JSX.TargetedEvent<HTMLSelectElement>): void {
    set.value = event.currentTarget.value as NotesSetName;
  }
  const out = notes.outside.value;
  return (
    <span class={s.reset}>
      {out ? (
        <span class={s.outside} data-testid="notes-outside" title={viewOf(out).cause}>
          <code>{out.file}</code> changed with no tool call running: {viewOf(out).headline} ·{" "}
          {new Date(out.at).toLocaleTimeString()}
        </span>
      ) : null}
      {/* "Notes file [empty]" read as the file's state ("the file is empty") while it held notes: this is a choice to reset to. */}
      <label class={s.label} for="notes-reset-set" data-testid="notes-reset-label">
        Reset <code>{w?.state === "watching" ? w.file : "the notes file"}</code> to
      </label>
      <select id="notes-reset-set" class={s.select} value={set.value} onChange={onChange}>
        {NOTES_SET_NAMES.map((n) => (
          <option key={n} value={n}>
            {label(n)}
          </option>
        ))}
      </select>
      <Button onClick={() => void notes.reset(set.value)} disabled={notes.resetting.value} data-testid="notes-reset">
        {notes.resetting.value ? "Resetting…" : "Reset"}
      </Button>
      {notes.error.value ? (
        <span class={s.error} role="alert">
          {notes.error.value}
        </span>
      ) : notes.resetNotice.value ? (
        <span class={s.notice}>{notes.resetNotice.value}</span>
      ) : null}
    </span>
  );
}
