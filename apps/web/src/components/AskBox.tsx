/** Ask the agent a question; the trace it causes opens and builds live. Shows which model answers. */
import type { JSX } from "preact";
import { AgentDialectSchema, type AgentDialect } from "@hopscope/shared/agent/schemas";
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./AskBox.module.css";
import { ModelBadge } from "./ModelBadge";

const DIALECT_NAMES: Record<AgentDialect, string> = {
  ollama: "Ollama API",
  openai: "OpenAI API",
  anthropic: "Anthropic API",
};

export function AskBox() {
  const { ask } = useApp();
  function onSubmit(event: JSX.TargetedEvent<HTMLFormElement>): void {
    event.preventDefault();
    void ask.ask();
    // Back to the timeline: j / k / End step through the hops again instead of typing into the box.
    const input = event.currentTarget.querySelector("input");
    if (input instanceof HTMLInputElement) input.blur();
  }
  function onInput(event: JSX.TargetedEvent<HTMLInputElement>): void {
    ask.message.value = event.currentTarget.value;
  }
  function onDialect(event: JSX.TargetedEvent<HTMLSelectElement>): void {
    const v = AgentDialectSchema.safeParse(event.currentTarget.value);
    ask.dialect.value = v.success ? v.data : null;
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
      <select
        class={s.dialect}
        value={ask.dialect.value ?? ""}
        onChange={onDialect}
        aria-label="Which API the host speaks to the model"
        data-testid="ask-dialect"
        title="The same question, in the dialect of your choice: Ollama's /api/chat, OpenAI's /v1/chat/completions or Anthropic's /v1/messages"
      >
        <option value="">host's dialect</option>
        {(["ollama", "openai", "anthropic"] satisfies AgentDialect[]).map((d) => (
          <option key={d} value={d}>
            {DIALECT_NAMES[d]}
          </option>
        ))}
      </select>
      <Button variant="primary" type="submit" disabled={ask.sending.value || !ask.message.value.trim()}>
        {ask.sending.value ? "Asking…" : "Ask"}
      </Button>
      {ask.openConversation.value ? (
        <label
          class={s.cont}
          title="Ask as the next turn of the open trace's conversation: the host resends everything said so far"
        >
          <input
            type="checkbox"
            checked={ask.continueOpen.value}
            onChange={(e) => (ask.continueOpen.value = e.currentTarget.checked)}
            data-testid="continue-conversation"
          />
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
