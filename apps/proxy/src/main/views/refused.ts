/** A refused request in the views: refused before rendering (no prompt), or answered with an error after it. */
import { errorMessageOf } from "@hopscope/shared/dialects/dialect-error";
import { tryParseJson } from "@hopscope/shared/json/parse";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { ExchangeViews } from "@hopscope/shared/trace/views";

/** Ollama refused the request before rendering anything: no prompt, and the model never saw it. */
export function refusedBeforeRender(outcome: { status: number; message: string }): ExchangeViews {
  return {
    refused: { status: outcome.status, message: outcome.message },
    notes: [
      `Ollama refuses this request before rendering anything (${outcome.status}: ${outcome.message}), so there is no prompt: the model never saw it. The response shows the same error.`,
    ],
  };
}

/** The server answered an error after rendering: the prompt is what it would have rendered, labelled so. */
export function refusedAfterRender(ex: Exchange, views: ExchangeViews, notes: string[]): void {
  if (ex.status === null || ex.status < 400) return;
  const said = ex.responseBody?.encoding === "utf8" ? errorMessageOf(tryParseJson(ex.responseBody.data)) : null;
  views.refused = { status: ex.status, message: said ?? `the model server answered ${ex.status}` };
  notes.push(
    `The model server answered ${ex.status}${said ? ` (${said})` : ""}: this is the prompt Ollama would have rendered, but the model never saw it.`,
  );
}
