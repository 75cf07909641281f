/**
 * The fifth lane of the sequence view: the notes file (`data/db`), named in the strip above the first
 * row. Each change the recorder saw is a mark in the band below the arrows of the hop that caused it — "1 note added", "2 notes deleted" (destructive changes in
 * red) — joined to the MCP server's lane, since only the MCP server touches the file. A change with no
 * tool call running sits on the hop it happened during, marked as such. Clicking a mark opens that hop.
 */
import { noteLines } from "@hopscope/shared/trace/notes-diff";
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import { viewOf } from "../models/notes-view";
import type { Hop } from "../models/hops";
import { BAND_PAD_REM, MARK_REM, NAME_STRIP_REM, type RowLayout } from "../models/row-layout";
import { useApp } from "./AppContext";
import { FILE_X, LANE_X } from "./lanes";
import s from "./NotesLane.module.css";

interface Props {
  hops: readonly Hop[];
  /** The marks to draw (models/notes-view.ts laneMarks), each on its hop's row. */
  marks: readonly { c: NotesChange; hop: Hop }[];
  /** Where the rows are: each mark goes in the band below its row's arrows. */
  layout: RowLayout;
}

export function NotesLane({ hops, marks, layout }: Props) {
  const { replay } = useApp();
  return (
    <div class={s.overlay} aria-label="Notes file changes">
      <i class={s.lifeline} style={{ left: `${FILE_X}%` }} />
      <div class={s.head}>
        <NotesLaneName />
      </div>
      {marks.map(({ c, hop }, i) => {
        const v = viewOf(c);
        const row = hops.indexOf(hop);
        // Several changes on one hop stack downwards inside its band.
        const nth = marks.slice(0, i).filter((m) => m.hop === hop).length;
        const top = NAME_STRIP_REM + (layout.tops[row] ?? 0) + layout.arrows + BAND_PAD_REM / 2 + nth * MARK_REM;
        const linked = c.cause.kind === "tool-call";
        return (
          <div key={c.id} class={s.mark} style={{ top: `${top}rem` }}>
            {linked ? <span class={s.link} style={{ left: `${LANE_X.mcp}%`, right: `${100 - FILE_X}%` }} /> : null}
            <button
              type="button"
              class={`${s.pill} ${v.destructive ? s.destructive : ""} ${linked ? "" : s.unlinked}`}
              data-testid="notes-mark"
              data-mark-hop={hop.number}
              data-destructive={v.destructive ? "true" : "false"}
              data-cause={c.cause.kind}
              title={`data/db ${v.headline} — ${v.cause}`}
              onClick={(e) => {
                e.stopPropagation();
                replay.goTo(hop.number);
              }}
            >
              {c.cause.kind === "reset" ? "reset: " : linked ? "" : "no tool call: "}
              {v.short}
            </button>
          </div>
        );
      })}
    </div>
  );
}

/** The lane's name, atop its line in the strip above the first row, with what the recorder can see of the file. */
export function NotesLaneName() {
  const { notes } = useApp();
  const w = notes.watch.value;
  const now = notes.current.value;
  const lines = now?.encoding === "utf8" ? noteLines(now.data) : null;
  const content =
    w?.state !== "watching"
      ? ""
      : now === null
        ? " Now: no file."
        : lines === null
          ? ` Now: ${now.size} bytes, not text.`
          : ` Now: ${lines.length} note${lines.length === 1 ? "" : "s"}${lines.length ? ` — ${lines.slice(0, 5).join(" / ")}${lines.length > 5 ? " …" : ""}` : ""}.`;
  const label = w === null ? "notes file" : w.state === "watching" ? w.file : "notes file: not visible";
  const help =
    w === null
      ? "The notes file the MCP server owns."
      : w.state === "watching"
        ? `The notes file the MCP server owns (${w.path}). The recorder watches it: every change shows here, on the hop that caused it.`
        : w.state === "remote"
          ? `The MCP server is at ${w.upstream}: its notes file is on another machine, so the recorder cannot show its changes.`
          : "The recorder does not watch the notes file (NOTES_FILE=off).";
  return (
    <span
      class={`${s.name} ${w && w.state !== "watching" ? s.blind : ""}`}
      title={help + content}
      data-testid="notes-lane-name"
    >
      {label}
    </span>
  );
}
