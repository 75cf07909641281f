/** Follow the data: every place the followed value appears, hop by hop, in the order it travelled. */
import type { FollowSide } from "../models/follow-index";
import { useApp } from "./AppContext";
import s from "./FollowPanel.module.css";

const SIDE: Record<FollowSide, string> = { request: "request", response: "response", prompt: "the prompt the model saw", "raw-output": "the text the model wrote" };

export function FollowPanel() {
  const { follow, ui, trace, replay } = useApp();
  const found = follow.occurrences.value;
  function close(): void {
    ui.followOpen.value = false;
  }
  const hops = new Map(trace.hops.value.map((h) => [h.number, h]));
  return (
    <aside class={s.panel} aria-label="Follow the data" data-testid="follow-panel">
      <header class={s.head}>
        <h2 class={s.title}>
          Following <mark>{ui.followQuery.value}</mark>
        </h2>
        <span class={s.count}>
          {follow.loading.value ? "searching every hop…" : `${found.length} place${found.length === 1 ? "" : "s"} in ${follow.hopsWithMatch.value.size} hop${follow.hopsWithMatch.value.size === 1 ? "" : "s"}`}
        </span>
        <button type="button" class={s.close} onClick={close} aria-label="Close">
          ✕
        </button>
      </header>
      {found.length === 0 && !follow.loading.value ? <p class={s.none}>Not found in this trace. Values are matched ignoring case.</p> : null}
      <ol class={s.list}>
        {found.map((o, i) => {
          const hop = hops.get(o.hop);
          function go(): void {
            replay.goTo(o.hop);
            ui.tab.value = o.side === "prompt" ? "saw" : o.side === "raw-output" ? "wrote" : "wire";
          }
          return (
            <li key={i}>
              <button type="button" class={s.item} onClick={go} data-hop={o.hop}>
                <span class={s.hop} data-kind={hop?.kind}>
                  {o.hop || "?"}
                </span>
                <span class={s.where}>
                  {SIDE[o.side]} {o.path ? <code>{o.path}</code> : null}
                  {o.origin ? <> ← from <code>{o.origin}</code></> : null}
                </span>
                <span class={s.snippet}>
                  {o.before}
                  <mark>{o.match}</mark>
                  {o.after}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </aside>
  );
}
