/** What to do next when no trace is open: ask something, or open a trace on the left. */
import { useApp } from "./AppContext";
import { Button } from "./Button";
import s from "./EmptyState.module.css";

export function EmptyState() {
  const { ask, traces, trace } = useApp();
  const hasTraces = traces.traces.value.length > 0 || traces.saved.value.length > 0;
  function focusAsk(): void {
    document.getElementById("ask-input")?.focus();
  }
  return (
    <section class={s.empty} aria-label="No trace open">
      {trace.loadError.value ? (
        <p class={s.error} role="alert">
          {trace.loadError.value}
        </p>
      ) : null}
      <h1 class={s.title}>
        {hasTraces ? "Open a trace, or ask something new" : "Ask the agent something to see your first trace"}
      </h1>
      <p class={s.text}>
        Type a request such as <q>{ask.message.value || "Add buy milk to my notes"}</q> above and press <b>Ask</b>. You
        will watch every hop arrive: your question to the host, the host asking the MCP server for tools, the host
        sending the prompt to the model, the model's tool call, the host running the tool — and the answer coming back.
      </p>
      <div class={s.lanes} aria-hidden="true">
        <span style="--c: var(--lane-you)">You</span>
        <span style="--c: var(--lane-host)">Host</span>
        <span style="--c: var(--lane-model)">Model server</span>
        <span style="--c: var(--lane-mcp)">MCP server</span>
      </div>
      <Button variant="primary" onClick={focusAsk} hint="a">
        Ask the agent
      </Button>
    </section>
  );
}
