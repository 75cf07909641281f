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

export function replyWithoutTool(intent: Intent, hasTools: boolean): string {
  if (intent.kind === "none") {
    return hasTools
      ? "I can read, add to, change, overwrite or clear your notes. What would you like me to do?"
      : "I can help with your notes when the notes tools are available.";
  }
  return `I can't ${WHAT[intent.kind](intent)}: I wasn't given a tool for that.`;
}
