/** Ask the agent a question; the trace it causes opens and builds live. Shows which model answers. */
import type { JSX } from "preact";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./AskBox.module.css";
import { ModelBadge } from "./ModelBadge";

export function AskBox() {
  const { ask } = useApp();
  function onSubmit(event: JSX.TargetedEvent<HTMLFormElement>): void {
    event.preventDefault();
    void ask.ask();
  }
  function onInput(event: JSX.TargetedEvent<HTMLInputElement>): void {
    ask.message.value = event.currentTarget.value;
  }
  return (
    <form class={s.form} onSubmit={onSubmit} aria-label="Ask the agent">
      <input
        id="ask-input"
        class={s.input}
        value={ask.message.value}
        onInput={onInput}
        placeholder="Ask the agent, e.g. Add buy milk to my notes"
        aria-label="Message to the agent"
        autocomplete="off"
      />
      <Button variant="primary" type="submit" disabled={ask.sending.value || !ask.message.value.trim()}>
        {ask.sending.value ? "Asking…" : "Ask"}
      </Button>
      {ask.openConversation.value ? (
        <label class={s.cont} title="Ask as the next turn of the open trace's conversation: the host resends everything said so far">
          <input type="checkbox" checked={ask.continueOpen.value} onChange={(e) => (ask.continueOpen.value = e.currentTarget.checked)} data-testid="continue-conversation" />
          continue
        </label>
      ) : null}
      <ModelBadge />
      {ask.error.value ? (
        <span class={s.error} role="alert" title={ask.error.value}>
          {ask.error.value}
        </span>
      ) : null}
    </form>
  );
}
