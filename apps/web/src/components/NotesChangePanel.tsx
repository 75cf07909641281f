/**
 * The notes file's change(s) on the selected hop: what the file held before and after, line by line —
 * deleted notes struck through in red, added ones in green — with a call-out when notes were lost, and
 * what caused it. Bytes that are not text are shown as hex.
 */
import type { Hop } from "../models/hops";
import { bytesOf, changesAt, hexLines, hopOfChange, viewOf } from "../models/notes-view";
import { useApp } from "./AppContext";
import s from "./NotesChangePanel.module.css";

export function NotesChangePanel({ hop, large }: { hop: Hop; large?: boolean }) {
  const { notes, replay } = useApp();
  const hops = replay.visibleHops.value;
  const mine = changesAt(notes.changes.value, replay.start.value, replay.cursor.value).filter(
    (c) => hopOfChange(hops, c)?.number === hop.number,
  );
  if (mine.length === 0) return null;
  return (
    <>
      {mine.map((c) => {
        const v = viewOf(c);
        const bytes = bytesOf(c);
        return (
          <section
            key={c.id}
            class={`${s.panel} ${large ? s.large : ""} ${v.destructive ? s.destructive : ""}`}
            data-testid="notes-change"
            aria-label="The notes file changed"
          >
            <h3 class={s.head}>
              <code class={s.file}>{c.file}</code> {v.headline}
              <span class={s.cause}>
                {" "}
                {v.cause} · {new Date(c.at).toLocaleTimeString()}
              </span>
            </h3>
            {v.diff ? (
              v.diff.length === 0 ? (
                <p class={s.empty}>The file is empty now.</p>
              ) : (
                <pre class={s.diff} data-testid="notes-diff">
                  {v.diff.map((d, i) => (
                    <div key={i} class={s[d.op]} data-op={d.op}>
                      <span class={s.sign}>{d.op === "add" ? "+" : d.op === "del" ? "−" : " "}</span>
                      {d.text === "" ? " " : d.text}
                    </div>
                  ))}
                </pre>
              )
            ) : bytes ? (
              <pre class={s.diff} data-testid="notes-bytes">
                {hexLines(bytes).join("\n")}
              </pre>
            ) : null}
          </section>
        );
      })}
    </>
  );
}
