/**
 * The stand-in's "thinking": a small deterministic policy from the conversation to the next output.
 * First step of a turn → the call the user's words ask for; after a tool result → a short reply
 * grounded in it; after a tool error → a corrected retry (once), then an apology. A lesson replaces
 * one of these steps with the mistake a small model really makes (see apps/model-sim/README.md).
 */
import type { OllamaMessage, OllamaTool } from "@hopscope/shared/ollama/schemas";
import type { Lesson } from "@hopscope/shared/ollama/lessons";
import { readTurn, type Attempt } from "./conversation";
import { parseIntent, type Intent } from "./intent";
import { replyAfterFailure, replyAfterSuccess, replyWithoutTool } from "./replies";
import { NOTES_TOOLS, argumentsFor, callFor, toolNamed, type PlannedCall } from "./tool-args";

export interface Decision {
  /** Text before any tool call (or the whole reply). */
  content: string;
  toolCalls: PlannedCall[];
  /** Why, in one line: logged, and shown by tests when an expectation fails. */
  why: string;
}

export interface PolicyInput {
  messages: OllamaMessage[];
  tools: OllamaTool[];
  lesson: Lesson | null;
}

const reply = (content: string, why: string): Decision => ({ content, toolCalls: [], why });
const call = (c: PlannedCall, why: string): Decision => ({ content: "", toolCalls: [c], why });

/** Names for the tool a small model invents; none contains a notes tool's name, which Ollama's parser would latch onto. */
const INVENTED: Record<Intent["kind"], string> = {
  append: "add_note",
  read: "show_notes",
  update: "edit_note",
  write: "save_notes",
  clear: "empty_notes",
  none: "notes_help",
};

export function decide({ messages, tools, lesson }: PolicyInput): Decision {
  const turn = readTurn(messages);
  if (turn.endsWithAssistant)
    return reply("", "the last message is the assistant's own: it is continued, and ends at once");
  if (turn.userText === null) return reply(replyWithoutTool({ kind: "none" }, tools.length > 0), "no user message");
  const intent = parseIntent(turn.userText);
  const right = callFor(intent, tools);

  if (turn.attempts.length === 0) {
    if (!right) return reply(replyWithoutTool(intent, tools.length > 0), `intent ${intent.kind}: no tool to call`);
    return firstCall(intent, right, tools, lesson);
  }

  const last = turn.attempts[turn.attempts.length - 1]!;
  if (lesson === "loop" && !last.failed && toolNamed(tools, "read")) {
    return call({ name: "read", arguments: {} }, "lesson loop: checks the notes again, and again");
  }
  if (last.failed) return retry(intent, right, turn.attempts, last);
  return reply(replyAfterSuccess(intent, last.result ?? ""), `after ${last.name}: reply grounded in its result`);
}

function firstCall(intent: Intent, right: PlannedCall, tools: OllamaTool[], lesson: Lesson | null): Decision {
  switch (lesson) {
    case "write-instead-of-append": {
      const write = toolNamed(tools, "write");
      if (intent.kind === "append" && write) {
        return call(
          { name: "write", arguments: argumentsFor({ kind: "write", content: intent.content }, write) },
          "lesson write-instead-of-append: 'write' sounded right for an add",
        );
      }
      break;
    }
    case "missing-argument":
      if (Object.keys(right.arguments).length > 0)
        return call({ name: right.name, arguments: {} }, "lesson missing-argument: the call forgets its arguments");
      break;
    case "unknown-tool": {
      // A small model prefers a tool whose name echoes the user's verb. If the host declared one the MCP
      // server lacks, Ollama passes the call through and the MCP server answers "Unknown tool" (a protocol
      // error). If not, the model invents one; Ollama's parser drops undeclared names, so the host gets
      // an empty answer — the silent failure a real qwen2.5 produces.
      const extra = tools.find((t) => !(NOTES_TOOLS as readonly string[]).includes(t.function.name));
      const name = extra?.function.name ?? INVENTED[intent.kind];
      return call(
        { name, arguments: right.arguments },
        extra
          ? `lesson unknown-tool: picks the declared extra tool ${name}`
          : `lesson unknown-tool: invents ${name}, which Ollama's parser drops`,
      );
    }
    case "loop":
    case "slow":
    case null:
      break;
  }
  return call(right, `intent ${intent.kind}`);
}

function retry(intent: Intent, right: PlannedCall | null, attempts: Attempt[], last: Attempt): Decision {
  const failures = attempts.filter((a) => a.failed).length;
  const same =
    right !== null && right.name === last.name && JSON.stringify(right.arguments) === JSON.stringify(last.arguments);
  if (!right || same || failures >= 2)
    return reply(replyAfterFailure(last.result ?? ""), `${last.name} failed: giving up`);
  return call(right, `${last.name} failed: corrected retry`);
}
