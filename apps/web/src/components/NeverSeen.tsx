/**
 * At the top of "What the model saw", without a click: what never reached the model. A refused request says so;
 * a cut conversation says in one sentence which messages went, what they cost, whether the learner's question
 * was among them, and how to raise the context length for this client; then everything else the client sent
 * that the model never sees, each with the JSON pointer in the client's body it came from.
 */
import type { ExchangeViews } from "@hopscope/shared/trace/views";
import { raiseWords, truncationWords } from "../models/context-words";
import s from "./NeverSeen.module.css";

type PromptView = NonNullable<ExchangeViews["prompt"]>;

const KIND_WORDS = { role: "message", tool: "tool", field: "field", option: "setting" } as const;

export function NeverSeen({ p, refused }: { p: PromptView; refused: ExchangeViews["refused"] }) {
  const t = p.truncation;
  const unseen = p.unseen ?? [];
  if (!refused && !t && unseen.length === 0) return null;
  const roles = new Map(
    p.budget?.parts.flatMap((part) =>
      part.messageIndex !== undefined && part.role ? [[part.messageIndex, part.role]] : [],
    ) ?? [],
  );
  return (
    <section class={s.box} aria-label="What never reached the model" data-testid="never-seen">
      {refused ? (
        <p class={s.refused} role="alert" data-testid="refused-banner">
          <b>Refused.</b> The model server answered {refused.status} ({refused.message}): the model never saw this
          request. Below is the prompt Ollama would have rendered for it.
        </p>
      ) : null}
      {t ? (
        <p class={s.cut} data-testid="truncation-sentence">
          {truncationWords(t, roles)} {raiseWords(t, p.conversion?.label)}
        </p>
      ) : null}
      {unseen.length > 0 ? (
        <div data-testid="unseen-list">
          <h3 class={s.heading}>
            Sent, but never seen by the model ({unseen.length} {unseen.length === 1 ? "item" : "items"})
          </h3>
          <ul class={s.list} tabIndex={0}>
            {unseen.map((u) => (
              <li key={`${u.kind}${u.clientPath}${u.what}`} data-kind={u.kind}>
                <span class={s.kind}>{KIND_WORDS[u.kind]}</span> <code class={s.path}>{u.clientPath}</code> {u.what}
                <span class={s.why}> — {u.why}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
