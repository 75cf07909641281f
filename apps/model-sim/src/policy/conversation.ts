/**
 * Reading the conversation the host resent: what the user last asked, and what has happened since
 * (the assistant's tool calls and the tool results, in order). The stand-in keeps no memory of its
 * own, exactly like a real model: everything it "knows" is in these messages.
 */
import type { OllamaMessage } from "@hopscope/shared/ollama/schemas";
import { notesKindOf } from "./tool-names";

export interface Attempt {
  name: string;
  arguments: Record<string, unknown>;
  /** The tool message that answered it; null when the host has not answered (yet). */
  result: string | null;
  failed: boolean;
}

export interface Turn {
  /** The learner's own words in the last user message that has any, or null when there is none. */
  userText: string | null;
  /** Tool calls made since that message, each with its result. */
  attempts: Attempt[];
  /** The conversation ends with a tool result, so the model is answering it. */
  afterToolResult: boolean;
  /** The last message is the assistant's own (a prefill Ollama leaves open for continuation). */
  endsWithAssistant: boolean;
}

const LOOKS_FAILED =
  /^\s*(?:error|sorry)\b|\b(?:is required|unknown (?:tool|param)|invalid|not found|refused|must be|is empty|failed|cannot|can't)\b/i;
const READ_FAILED = /^\s*error\b|notes file .* (?:is not|contains)/i;

/** Whether a tool result reads as an error. The model sees text, not `isError`, so it judges the text. */
export function looksFailed(toolName: string, result: string): boolean {
  return (notesKindOf(toolName) === "read" ? READ_FAILED : LOOKS_FAILED).test(result);
}

/**
 * Blocks agents inject into user turns: Claude Code's `<system-reminder>` (context, todo lists, the date),
 * Codex's `<environment_context>` and `<user_instructions>`/`<INSTRUCTIONS>` (AGENTS.md), Claude Code's
 * local-command markup. They are the agent talking, not the learner.
 */
const INJECTED =
  /<(system-reminder|environment_context|user_instructions|INSTRUCTIONS|local-command-caveat|local-command-stdout|command-name|command-message|command-args)>[\s\S]*?<\/\1>/g;
const AGENTS_MD_HEADING = /^# AGENTS\.md instructions for .*$/gm;

/** A user message's text without the blocks an agent injected: what the learner typed ("" when nothing). */
export function ownWords(content: string): string {
  return content.replace(INJECTED, "").replace(AGENTS_MD_HEADING, "").trim();
}

export function readTurn(messages: OllamaMessage[]): Turn {
  // The turn starts at the last user message with the learner's words in it; a later user message made only
  // of injected blocks (Claude Code sends reminders next to tool results) is the agent's, not a new question.
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === "user" && ownWords(m.content) !== "") lastUser = i;
  });
  const since = messages.slice(lastUser + 1);
  const attempts: Attempt[] = [];
  let pending: Attempt[] = [];
  for (const m of since) {
    if (m.role === "assistant") {
      pending = (m.tool_calls ?? []).map((c) => ({
        name: c.function.name,
        arguments: c.function.arguments,
        result: null,
        failed: false,
      }));
      attempts.push(...pending);
    } else if (m.role === "tool") {
      // Match by tool_name when the host sent it, else by order, as a model reading the transcript would.
      const open =
        pending.find((a) => a.result === null && (m.tool_name === undefined || a.name === m.tool_name)) ??
        pending.find((a) => a.result === null);
      if (open) {
        open.result = m.content;
        open.failed = looksFailed(open.name, m.content);
      }
    }
  }
  const last = messages[messages.length - 1];
  return {
    userText: lastUser === -1 ? null : ownWords(messages[lastUser]!.content),
    attempts,
    afterToolResult: last?.role === "tool",
    endsWithAssistant: last?.role === "assistant",
  };
}
