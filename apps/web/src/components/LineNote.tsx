/**
 * Under a model request's caption, in a run with a retry or a side request: a retry (of which hop, which
 * attempt, and why it counts as one, with a button to the first attempt), a side request (what for, and
 * how it differs from the main line), or why a request is on the main line — the rule, in words.
 */
import type { Hop } from "../models/hops";
import { lineNoteOf } from "../models/request-lines";
import { useApp } from "./AppContext";
import s from "./LineNote.module.css";

export function LineNote({ hop }: { hop: Hop }) {
  const { trace, replay } = useApp();
  const mark = lineNoteOf(hop, trace.roles.value);
  if (!mark) return null;
  return (
    <p class={s.note} data-testid="line-note" data-line={mark.kind}>
      <strong class={s.what}>{mark.heading}</strong> {mark.why}
      {mark.kind === "retry" ? (
        <>
          {" "}
          <button type="button" class={s.go} onClick={() => replay.goTo(mark.ofHop)}>
            Go to hop {mark.ofHop}
          </button>
        </>
      ) : null}
    </p>
  );
}
