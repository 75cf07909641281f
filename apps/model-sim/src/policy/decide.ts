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
import { replyAfterCut, replyAfterFailure, replyAfterSuccess, replyWithoutTool } from "./replies";
import { argumentsFor, callFor, type PlannedCall } from "./tool-args";
import { emptyNamespaces, findNotesTool, notesKindOf, notesPrefix } from "./tool-names";
import { bridgeCall, callAfterSearch, deferredName, isSearch, searchCall, searchTool } from "./deferred";

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
  /** How many declared tools the context window cut out of the prompt (./runner-cut.ts); 0 when none. */
  toolsCut?: number;
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

export function decide({ messages, tools, lesson, toolsCut = 0 }: PolicyInput): Decision {
  const turn = readTurn(messages);
  if (turn.endsWithAssistant)
    return reply("", "the last message is the assistant's own: it is continued, and ends at once");
  const names = tools.map((t) => t.function.name);
  if (turn.userText === null)
    return reply(replyWithoutTool({ kind: "none" }, names, []), "no user message (none survived, or none sent)");
  const intent = parseIntent(turn.userText);
  const right = callFor(intent, tools);

  // Searches for deferred tools come before the call; the turn's real steps are the other calls.
  const searches = turn.attempts.filter((a) => isSearch(a.name));
  const acted = turn.attempts.filter((a) => !isSearch(a.name));
  if (acted.length === 0) {
    if (right) return firstCall(intent, right, tools, lesson);
    return deferredStep(intent, messages, tools, searches) ?? noTool(intent, names, tools, toolsCut);
  }

  const last = acted[acted.length - 1]!;
  const read = findNotesTool(tools, "read");
  if (lesson === "loop" && !last.failed && read) {
    return call({ name: read.function.name, arguments: {} }, "lesson loop: checks the notes again, and again");
  }
  if (last.failed) return retry(intent, right, acted, last);
  return reply(replyAfterSuccess(intent, last.result ?? ""), `after ${last.name}: reply grounded in its result`);
}

function noTool(intent: Intent, names: string[], tools: OllamaTool[], toolsCut: number): Decision {
  if (toolsCut > 0 && intent.kind !== "none")
    return reply(
      replyAfterCut(intent, names, toolsCut),
      `intent ${intent.kind}: its tool was cut by the context window`,
    );
  return reply(
    replyWithoutTool(intent, names, emptyNamespaces(tools)),
    `intent ${intent.kind}: no declared tool does it`,
  );
}

/** A notes tool named in the conversation but not declared: search for it, then call it (./deferred.ts). */
function deferredStep(intent: Intent, messages: OllamaMessage[], tools: OllamaTool[], searches: Attempt[]) {
  const name = intent.kind === "none" ? null : deferredName(messages, intent.kind);
  if (name === null) return null;
  const bridged = bridgeCall(intent, name, tools);
  // With a bridge tool the model goes straight to it: a tool named `tool_call` is found by Ollama's parser inside
  // the `<tool_call>` tag itself (tools/tools.go findTool takes the earliest declared name in the buffer, which
  // starts at the tag), so a call to the search tool would reach the agent as `tool_call` anyway, and fail.
  if (bridged) return call(bridged, `${name} is deferred: calls it through ${bridged.name}`);
  if (searches.length > 0) {
    const next = callAfterSearch(intent, name, tools, searches);
    return next ? call(next, `the search showed ${name}: calls it`) : null;
  }
  const search = searchTool(tools);
  return search ? call(searchCall(search, name), `${name} is deferred: asks ${search.function.name} for it`) : null;
}

function firstCall(intent: Intent, right: PlannedCall, tools: OllamaTool[], lesson: Lesson | null): Decision {
  switch (lesson) {
    case "write-instead-of-append": {
      const write = findNotesTool(tools, "write");
      if (intent.kind === "append" && write) {
        return call(
          { name: write.function.name, arguments: argumentsFor({ kind: "write", content: intent.content }, write) },
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
      // Only a tool of the notes server counts: an agent's own tools (Bash, Read, …) are not what it echoes.
      const prefix = notesPrefix(tools) ?? "";
      const extra = tools.find((t) => t.function.name.startsWith(prefix) && notesKindOf(t.function.name) === null);
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
