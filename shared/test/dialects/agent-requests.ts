/**
 * Agent-sized model requests, built the way the three coding agents send them (their shapes read from their own
 * captures: Claude Code's /v1/messages, Codex's /v1/responses, opencode's /v1/chat/completions), with the notes
 * MCP tools among the agent's own. Deterministic: the same bytes every run, so a test or the bench can compare.
 * Long descriptions are built from plain sentences of the kind these agents write into tool descriptions.
 */

const SENTENCES = [
  "Use this tool when the task needs it, and prefer it over running a shell command that does the same thing.",
  "The path must be absolute, not relative; relative paths are resolved against an unknown directory and fail.",
  "Never guess at the contents of a file you have not read in this conversation: read it first, then act.",
  "When several independent calls are needed, send them together in one message so they run in parallel.",
  "Results longer than thirty thousand characters are cut; ask for a narrower range when that happens.",
  "Do not use this tool to talk to the user: every word you write outside a tool call is shown to them.",
  "Quote paths that contain spaces, and keep the working directory stable by using absolute paths throughout.",
  "If the call fails, read the error, fix the arguments and try again instead of giving up on the first try.",
  "Prefer editing existing files to creating new ones, and never create documentation files unless asked.",
  "Report what you did in one or two short sentences when the work is finished, without a summary of steps.",
];

/** About `words` words of tool-description prose (a sentence is about 18 words). */
function prose(words: number, seed: number): string {
  const out: string[] = [];
  let n = 0;
  for (let i = seed; n < words; i++) {
    const s = SENTENCES[i % SENTENCES.length]!;
    out.push(s);
    n += s.split(" ").length;
  }
  return out.join(" ");
}

interface ToolSpec {
  name: string;
  words: number;
  params: Record<string, { type: string; description: string }>;
  required: string[];
}

function schema(t: ToolSpec): Record<string, unknown> {
  return {
    type: "object",
    properties: t.params,
    required: t.required,
    additionalProperties: false,
    $schema: "http://json-schema.org/draft-07/schema#",
  };
}

const p = (description: string) => ({ type: "string", description });

/** The notes MCP server's five tools, as every agent lists them (mcp__notes__* in Claude Code). */
const NOTES_TOOLS: [string, ToolSpec["params"], string[], string][] = [
  ["read", {}, [], "Read the whole notes file."],
  ["append", { content: p("The text to add at the end of the notes file.") }, ["content"], "Append text to the notes."],
  ["write", { content: p("The new contents of the notes file.") }, ["content"], "Replace the whole notes file."],
  [
    "update",
    { search: p("The exact text to find."), replace: p("The text to put in its place.") },
    ["search", "replace"],
    "Replace the first occurrence of a text in the notes.",
  ],
  ["clear", {}, [], "Empty the notes file."],
];

const CLAUDE_TOOLS = [
  "Task",
  "Bash",
  "Glob",
  "Grep",
  "ExitPlanMode",
  "Read",
  "Edit",
  "MultiEdit",
  "Write",
  "NotebookEdit",
  "WebFetch",
  "TodoWrite",
  "WebSearch",
  "BashOutput",
  "KillShell",
  "SlashCommand",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  "mcp__ide__getDiagnostics",
  "mcp__ide__executeCode",
  "mcp__github__search_code",
  "mcp__github__get_file_contents",
  "mcp__github__create_issue",
  "mcp__github__list_issues",
  "mcp__github__create_pull_request",
  "mcp__github__get_pull_request",
  "mcp__github__add_comment",
  "mcp__playwright__browser_navigate",
  "mcp__playwright__browser_click",
  "mcp__playwright__browser_snapshot",
  "mcp__playwright__browser_type",
  "mcp__playwright__browser_take_screenshot",
  "mcp__context7__resolve_library_id",
];

function agentTools(names: string[], words: number): ToolSpec[] {
  return names.map((name, i) => ({
    name,
    words: words + ((i * 37) % 120),
    params: {
      [i % 2 ? "path" : "command"]: p(prose(14, i)),
      description: p("A short description of what this call does, in five to ten words."),
      ...(i % 3 === 0 ? { timeout: { type: "number", description: "Milliseconds before the call is stopped." } } : {}),
    },
    required: [i % 2 ? "path" : "command"],
  }));
}

const notesSpecs = (prefix: string): ToolSpec[] =>
  NOTES_TOOLS.map(([name, params, required, said]) => ({ name: `${prefix}${name}`, words: 8, params, required, said }));

function description(t: ToolSpec, i: number): string {
  const said = (t as ToolSpec & { said?: string }).said;
  return said ? `${said} ${prose(t.words, i)}` : prose(t.words, i);
}

export const AGENT_MODEL = "qwen2.5:7b";
/** What the learner asked, in every agent's request: the last user message. */
export const AGENT_QUESTION = "Add 'buy milk' to my notes, then tell me what is in them.";

const SYSTEM_TEXT = `You are an interactive CLI tool that helps users with software engineering tasks. ${prose(2200, 3)}`;

export interface AgentRequest {
  /** Which agent this imitates, for test names. */
  agent: "claude-code" | "codex" | "opencode";
  path: string;
  body: Record<string, unknown>;
}

/**
 * Claude Code: /v1/messages, the system as text blocks, 38 tools (five mcp__notes__*), thinking and effort set. Its
 * second request by default: the question, the model's tool call, and the tool's result.
 */
export function claudeCodeRequest(turn: 1 | 2 = 2): AgentRequest {
  const question = {
    role: "user",
    content: [
      { type: "text", text: "<system-reminder>\nThe notes MCP server is connected.\n</system-reminder>" },
      { type: "text", text: AGENT_QUESTION, cache_control: { type: "ephemeral" } },
    ],
  };
  const call = [
    {
      role: "assistant",
      content: [
        { type: "text", text: "I'll add that to your notes." },
        { type: "tool_use", id: "toolu_01notes", name: "mcp__notes__append", input: { content: "buy milk" } },
      ],
    },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_01notes", content: [{ type: "text", text: "Success" }] }],
    },
  ];
  const tools = [...agentTools(CLAUDE_TOOLS, 270), ...notesSpecs("mcp__notes__")];
  return {
    agent: "claude-code",
    path: "/v1/messages",
    body: {
      model: AGENT_MODEL,
      max_tokens: 32000,
      stream: true,
      system: [
        {
          type: "text",
          text: "You are Claude Code, Anthropic's official CLI for Claude.",
          cache_control: { type: "ephemeral" },
        },
        { type: "text", text: SYSTEM_TEXT, cache_control: { type: "ephemeral" } },
      ],
      messages: turn === 1 ? [question] : [question, ...call],
      tools: tools.map((t, i) => ({ name: t.name, description: description(t, i), input_schema: schema(t) })),
      metadata: { user_id: "user_0f3c_account__session_5b1e" },
      thinking: { type: "enabled", budget_tokens: 31999 },
      output_config: { effort: "high" },
      temperature: 1,
    },
  };
}

/** Codex: /v1/responses, its instructions as developer messages, the notes tools inside a namespace tool. */
export function codexRequest(): AgentRequest {
  const own = agentTools(
    ["shell", "apply_patch", "update_plan", "view_image", "list_mcp_resources", "read_mcp_resource"],
    120,
  );
  const flat = own.map((t, i) => ({
    type: "function",
    name: t.name,
    description: description(t, i),
    strict: false,
    parameters: schema(t),
  }));
  const namespace = {
    type: "namespace",
    name: "mcp__notes",
    description: "Tools of the notes MCP server.",
    tools: notesSpecs("").map((t, i) => ({
      type: "function",
      name: t.name,
      description: description(t, i),
      strict: false,
      parameters: schema(t),
    })),
  };
  return {
    agent: "codex",
    path: "/v1/responses",
    body: {
      model: AGENT_MODEL,
      instructions: "You are Codex, a coding agent based on GPT-5.",
      input: [
        { type: "message", role: "developer", content: [{ type: "input_text", text: prose(1500, 1) }] },
        { type: "message", role: "developer", content: [{ type: "input_text", text: prose(900, 6) }] },
        {
          type: "message",
          role: "user",
          content: [
            {
              type: "input_text",
              text: "<environment_context>\n  <cwd>/home/learner/notes</cwd>\n</environment_context>",
            },
          ],
        },
        { type: "message", role: "user", content: [{ type: "input_text", text: AGENT_QUESTION }] },
      ],
      tools: [...flat, namespace],
      tool_choice: "auto",
      parallel_tool_calls: false,
      reasoning: { summary: "auto" },
      store: false,
      stream: true,
      include: ["reasoning.encrypted_content"],
      prompt_cache_key: "0199a0c2-5f1e-7c30-9d8e-3b1f0e6a2d41",
    },
  };
}

/** opencode: /v1/chat/completions with 27 tools (five notes_*), a long system message. */
export function opencodeRequest(): AgentRequest {
  const names = [
    "bash",
    "edit",
    "webfetch",
    "glob",
    "grep",
    "list",
    "read",
    "write",
    "todowrite",
    "todoread",
    "task",
    "patch",
    "lsp_diagnostics",
    "lsp_hover",
    "invalid",
    "skill",
    "multiedit",
    "codesearch",
    "websearch",
    "batch",
    "question",
    "plan_enter",
  ];
  const tools = [...agentTools(names, 110), ...notesSpecs("notes_")];
  return {
    agent: "opencode",
    path: "/v1/chat/completions",
    body: {
      model: AGENT_MODEL,
      messages: [
        { role: "system", content: `You are opencode, an interactive CLI agent. ${prose(700, 2)}` },
        { role: "user", content: AGENT_QUESTION },
      ],
      tools: tools.map((t, i) => ({
        type: "function",
        function: { name: t.name, description: description(t, i), parameters: schema(t) },
      })),
      tool_choice: "auto",
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 32000,
    },
  };
}

export const AGENT_REQUESTS = [claudeCodeRequest, codexRequest, opencodeRequest] as const;
