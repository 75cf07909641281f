/**
 * Request bodies shaped like the real agents' (Claude Code 2.1, Codex 0.169, opencode 1.18, Qwen Code 0.24)
 * when pointed at a local Ollama with the notes MCP server configured: their own large tool lists with the
 * notes tools among them under each agent's naming scheme, their system prompts, and the blocks they inject
 * into user turns. Sizes are of the real order (Claude Code's first request is ~18k tokens).
 */
import { NOTES_TOOLS } from "./helpers";

export const QUESTION = "Add buy milk to my notes";

/** A description of about `words` words, as agents write them (usage notes, examples, warnings). */
function prose(name: string, words: number): string {
  const sentence = `Use ${name} when the task needs it; read the parameters carefully, prefer the dedicated tool over a shell command, and report what happened in one short line.`;
  const per = sentence.split(" ").length;
  return Array.from({ length: Math.ceil(words / per) }, () => sentence).join(" ");
}

const stringParam = (description: string) => ({ type: "string", description });

interface Spec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

function builtin(name: string, words: number, params: string[]): Spec {
  return {
    name,
    description: prose(name, words),
    parameters: {
      type: "object",
      properties: Object.fromEntries(params.map((p) => [p, stringParam(`The ${p}.`)])),
      required: params.slice(0, 1),
      additionalProperties: false,
      $schema: "http://json-schema.org/draft-07/schema#",
    },
  };
}

/** The notes server's tools under a naming scheme: `mcp__notes__append`, `notes_append`, … */
export function notesTools(name: (tool: string) => string): Spec[] {
  return NOTES_TOOLS.map((t) => ({
    name: name(t.function.name),
    description: t.function.description ?? "",
    parameters: t.function.parameters as Record<string, unknown>,
  }));
}

// prettier-ignore
const CLAUDE_BUILTINS = ["Task", "Bash", "Glob", "Grep", "ExitPlanMode", "Read", "Edit", "Write", "NotebookEdit", "WebFetch", "TodoWrite", "WebSearch", "BashOutput", "KillShell", "SlashCommand", "Skill", "AskUserQuestion", "EnterPlanMode", "ListMcpResourcesTool", "ReadMcpResourceTool", "MultiEdit", "LS", "TaskOutput", "TaskStop", "Agent", "Monitor", "Config", "StatusLine", "Memory", "ToolSearch", "Notify", "Cron", "Workflow"];

const REMINDER =
  "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# important-instruction-reminders\nDo what has been asked; nothing more, nothing less.\n\nIMPORTANT: this context may or may not be relevant to your tasks.\n</system-reminder>\n";

/** Claude Code's first `/v1/messages` request: 33 built-in tools then the MCP tools, adaptive thinking, effort high. */
export function claudeCodeRequest(stream: boolean, messages?: unknown[]): Record<string, unknown> {
  const tools = [
    ...CLAUDE_BUILTINS.map((n) => builtin(n, 260, ["command", "description"])),
    ...notesTools((t) => `mcp__notes__${t}`),
  ];
  return {
    model: "qwen2.5:7b",
    max_tokens: 32000,
    stream,
    system: [
      {
        type: "text",
        text: "You are Claude Code, Anthropic's official CLI for Claude.",
        cache_control: { type: "ephemeral" },
      },
      { type: "text", text: prose("the tools", 1800), cache_control: { type: "ephemeral" } },
    ],
    messages: messages ?? [
      {
        role: "user",
        content: [
          { type: "text", text: REMINDER },
          { type: "text", text: QUESTION, cache_control: { type: "ephemeral" } },
        ],
      },
    ],
    tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
    metadata: { user_id: "user_0000_account__session_8f1c2b7e-0000-4000-8000-000000000000" },
    thinking: { type: "adaptive" },
    output_config: { effort: "high" },
    temperature: 1,
  };
}

/** The turn after Claude Code ran the tool: the call, then its result next to a reminder in the user turn. */
export function claudeCodeAfterTool(stream: boolean, callId: string, result: string): Record<string, unknown> {
  const first = claudeCodeRequest(stream).messages as unknown[];
  return claudeCodeRequest(stream, [
    ...first,
    {
      role: "assistant",
      content: [{ type: "tool_use", id: callId, name: "mcp__notes__append", input: { content: "buy milk" } }],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: callId, content: [{ type: "text", text: result }] },
        { type: "text", text: "<system-reminder>\nThe TodoWrite tool hasn't been used recently.\n</system-reminder>" },
      ],
    },
  ]);
}

const CODEX_BUILTINS = ["shell", "update_plan", "apply_patch", "view_image", "list_mcp_resources", "read_mcp_resource"];

/** Codex's `/v1/responses` request: instructions, developer + user messages, the MCP server as a namespace tool. */
export function codexRequest(
  extraInput: unknown[] = [],
  reasoning: unknown = { effort: "none" },
): Record<string, unknown> {
  const fn = (s: Spec) => ({
    type: "function",
    name: s.name,
    description: s.description,
    strict: false,
    parameters: s.parameters,
  });
  const text = (role: string, t: string) => ({ type: "message", role, content: [{ type: "input_text", text: t }] });
  return {
    model: "qwen2.5:7b",
    instructions: `You are Codex, a coding agent. ${prose("the shell", 900)}`,
    input: [
      text(
        "developer",
        "<permissions instructions>\nFilesystem sandboxing: workspace-write. Approval policy: never.\n</permissions instructions>",
      ),
      text("user", "# AGENTS.md instructions for /tmp/work\n\n<INSTRUCTIONS>\nKeep answers short.\n</INSTRUCTIONS>"),
      text("user", "<environment_context>\n  <cwd>/tmp/work</cwd>\n  <shell>bash</shell>\n</environment_context>"),
      text("user", QUESTION),
      ...extraInput,
    ],
    tools: [
      ...CODEX_BUILTINS.map((n) => fn(builtin(n, 200, ["command"]))),
      {
        type: "namespace",
        name: "mcp__notes",
        description: "Tools of the notes MCP server.",
        tools: notesTools((t) => t).map(fn),
      },
    ],
    tool_choice: "auto",
    parallel_tool_calls: false,
    reasoning,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: "019a0000-0000-7000-8000-000000000000",
  };
}

// prettier-ignore
const OPENCODE_BUILTINS = ["bash", "edit", "glob", "grep", "list", "read", "write", "task", "webfetch", "todowrite", "todoread", "patch", "invalid"];
// prettier-ignore
const QWEN_BUILTINS = ["list_directory", "read_file", "search_file_content", "glob", "replace", "write_file", "web_fetch", "read_many_files", "run_shell_command", "save_memory", "todo_write", "task", "exit_plan_mode", "web_search"];

/** opencode's or Qwen Code's `/v1/chat/completions` request: their own tools, then the MCP tools. */
export function chatAgentRequest(agent: "opencode" | "qwen-code", extra: unknown[] = []): Record<string, unknown> {
  const opencode = agent === "opencode";
  const own = (opencode ? OPENCODE_BUILTINS : QWEN_BUILTINS).map((n) => builtin(n, 220, ["path", "content"]));
  const notes = notesTools((t) => (opencode ? `notes_${t}` : `mcp__notes__${t}`));
  const question = opencode
    ? QUESTION
    : `${QUESTION}\n\n<system-reminder>\nYou have no todo list yet.\n</system-reminder>`;
  return {
    model: "qwen2.5:7b",
    messages: [
      {
        role: "system",
        content: `You are ${opencode ? "opencode" : "Qwen Code"}, an interactive CLI agent. ${prose("tools", 1200)}`,
      },
      { role: "user", content: opencode ? [{ type: "text", text: question }] : question },
      ...extra,
    ],
    tools: [...own, ...notes].map((s) => ({ type: "function", function: s })),
    tool_choice: "auto",
    stream: true,
    stream_options: { include_usage: true },
    temperature: opencode ? 0.55 : 0,
    max_tokens: 32000,
  };
}
