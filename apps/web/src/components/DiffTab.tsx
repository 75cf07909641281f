/**
 * "What's new" since the previous model request: the host resends the whole conversation every turn
 * (the model remembers nothing), so most of this request is the last one again. New messages are
 * highlighted; resent ones are dimmed.
 */
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { bodyText, tryJson } from "../models/body";
import { diffChatRequests, type MessageDiff } from "../models/request-diff";
import { useApp } from "./AppContext";
import s from "./DiffTab.module.css";

interface Props {
  x: ExchangeSummary;
  prev: ExchangeSummary;
}

const STATUS_LABEL: Record<MessageDiff["status"], string> = {
  resent: "resent",
  new: "+ new",
  changed: "~ changed",
  removed: "− dropped",
};

function roleOf(m: unknown): string {
  return m && typeof m === "object" && typeof (m as { role?: unknown }).role === "string"
    ? (m as { role: string }).role
    : "?";
}

export function DiffTab({ x, prev }: Props) {
  const { trace } = useApp();
  const a = trace.full.value.get(prev.id);
  const b = trace.full.value.get(x.id);
  if (a?.status !== "ready" || b?.status !== "ready") return <p class={s.note}>Loading both requests…</p>;
  const d = diffChatRequests(tryJson(bodyText(a.value.requestBody)), tryJson(bodyText(b.value.requestBody)));
  const views = trace.views.value.get(x.id);
  const prefix = views?.status === "ready" ? views.value.diff : undefined;
  return (
    <div class={s.tab} data-testid="diff">
      <p class={s.summary}>
        Compared with the previous model request: <b>{d.resentCount}</b> message{d.resentCount === 1 ? "" : "s"} resent
        unchanged, <b class={s.newCount}>{d.newCount}</b> new.
        {d.toolsChanged ? " The tools changed." : " The same tools again."}
        {d.changedFields.length ? ` Also changed: ${d.changedFields.join(", ")}.` : ""}
      </p>
      {prefix ? (
        <p class={s.note}>
          The first {prefix.commonPrefixLength.toLocaleString()} of the previous prompt's{" "}
          {prefix.previousLength.toLocaleString()} characters are identical here, so the model server can reuse its
          cache for them — it still had to receive them all.
        </p>
      ) : null}
      <ol class={s.list}>
        {d.messages.map((m) => {
          const head = (
            <>
              <span class={s.status}>{STATUS_LABEL[m.status]}</span>
              <code>messages[{m.index}]</code>
              <span class={s.role}>{roleOf(m.message)}</span>
            </>
          );
          const json = <pre class={s.json}>{JSON.stringify(m.message, null, 2)}</pre>;
          // Resent messages are one line each (their JSON a click away), so what is new is in view first.
          return (
            <li key={`${m.status}${m.index}`} class={s.item} data-status={m.status}>
              {m.status === "resent" ? (
                <details>
                  <summary class={s.head}>{head}</summary>
                  {json}
                </details>
              ) : (
                <>
                  <div class={s.head}>{head}</div>
                  {json}
                </>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
