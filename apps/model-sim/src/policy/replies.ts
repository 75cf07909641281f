/**
 * The short natural replies the stand-in writes once a tool has answered, grounded in the intent and
 * the tool's result the way the article's moment 7 is (`I've added "buy milk" to your notes.`). They
 * speak as an assistant and never claim to be a particular real model.
 */
import type { Intent } from "./intent";

const EMPTY = /^\s*(?:\(?empty\)?|the file is empty\.?|no notes\.?|)\s*$/i;

export function replyAfterSuccess(intent: Intent, result: string): string {
  switch (intent.kind) {
    case "append":
      return `I've added "${intent.content}" to your notes.`;
    case "write":
      return `I've replaced your notes with "${intent.content}".`;
    case "update":
      return `I've changed "${intent.search}" to "${intent.replace}" in your notes.`;
    case "clear":
      return "I've cleared your notes.";
    case "read":
      return EMPTY.test(result) ? "Your notes are empty." : `Here's what's in your notes:\n\n${result.trim()}`;
    case "none":
      return `Done. The tool said: ${result.trim()}`;
  }
}

export function replyAfterFailure(error: string): string {
  return `Sorry, I couldn't do that. The tool said: ${error.trim()}`;
}

const WHAT: Record<Exclude<Intent["kind"], "none">, (i: Intent) => string> = {
  append: (i) => `add "${"content" in i ? i.content : ""}" to your notes`,
  read: () => "read your notes",
  update: (i) => (i.kind === "update" ? `change "${i.search}" to "${i.replace}"` : "change your notes"),
  write: () => "overwrite your notes",
  clear: () => "clear your notes",
};

/**
 * The answer when no declared tool does what was asked. It says what the model was given, never "not given"
 * when tools were offered: a namespace that arrived without its functions is named as such, and otherwise
 * the tools it did get are listed, so the learner sees the mismatch rather than a broken MCP setup.
 */
export function replyWithoutTool(intent: Intent, toolNames: string[], emptyNamespaces: string[]): string {
  if (intent.kind === "none") {
    return toolNames.length > 0
      ? "I can read, add to, change, overwrite or clear your notes. What would you like me to do?"
      : "I can help with your notes when the notes tools are available.";
  }
  const what = WHAT[intent.kind](intent);
  if (emptyNamespaces.length > 0) {
    const names = emptyNamespaces.map((n) => `"${n}"`).join(", ");
    return `I can't ${what}: the tools I was given include ${names}, but with no functions inside it — the server passed the namespace on without its tools, so there is nothing I can call.`;
  }
  if (toolNames.length > 0) {
    const shown = toolNames.slice(0, 8).join(", ") + (toolNames.length > 8 ? `, and ${toolNames.length - 8} more` : "");
    return `I can't ${what}: none of the ${toolNames.length} tools I was given (${shown}) does that.`;
  }
  return `I can't ${what}: I wasn't given a tool for that.`;
}

/** The answer when the tool for the question was offered but cut out of the prompt by the context window. */
export function replyAfterCut(intent: Exclude<Intent, { kind: "none" }>, seen: string[], cut: number): string {
  const what = WHAT[intent.kind](intent);
  return `I can't ${what}: only the end of the tool list reached me (${seen.length} of ${seen.length + cut} tools; the prompt was cut to fit the context window), and none of those does that.`;
}
