/**
 * renderChat / renderGenerate: the exact prompt Ollama sends to the model for an /api/chat or /api/generate
 * request, with segments saying where each part came from and notes explaining version-dependent details.
 * Steps as Ollama does them (reference §4): decode tools, prepend the model SYSTEM, collate, execute the model's
 * Go template over the version's Go values. Truncation to num_ctx is not applied (it needs the tokenizer);
 * a note says when it might apply.
 */
import type { z } from "zod";
import type { ChatRequest, ChatRequestSchema, GenerateRequest, GenerateRequestSchema } from "../ollama/schemas";
import { type MessageInput, chatRoot, messagesValue, toolsValue } from "./api-values";
import type { TemplateTree } from "./gotemplate/ast";
import { type ExecOptions, compileTemplate, executeTree } from "./gotemplate/exec";
import type { GoValue } from "./gotemplate/values";
import { executeLegacy, cutAfterResponse, withResponseAppended } from "./legacy";
import { ollamaFuncs } from "./ollama-funcs";
import { type LooseMessage, type Prepared, collateChat } from "./prepare";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "./qwen25";
import { type Segment, SegmentBuilder } from "./segments";
import { type DecodedTool, RenderInputError, decodeTool } from "./tool-decode";
import { DEFAULT_OLLAMA_VERSION, type OllamaFeatures, featuresFor } from "./version";

export { DEFAULT_OLLAMA_VERSION };
export type { Segment, SegmentKind } from "./segments";

export interface RenderOptions {
  /** Ollama version whose behaviour to reproduce (from GET /api/version); default DEFAULT_OLLAMA_VERSION. */
  ollamaVersion?: string;
  /** The model's TEMPLATE; default qwen2.5's. */
  template?: string;
  /** The model's SYSTEM; default qwen2.5's. Pass "" for a model without one. */
  system?: string;
  /** Clock for `currentDate`/`yesterdayDate` in templates that use them. */
  now?: Date;
}

export interface RenderResult {
  text: string;
  segments: Segment[];
  ollamaVersion: string;
  toolFormat: "json" | "struct-dump";
  notes: string[];
  /** JSON pointers (into the request) of the keys Ollama's Go structs dropped while decoding tools. */
  droppedKeys?: string[];
}

/** How the render's note that the prompt may not fit begins (a view with token counts says for sure instead). */
export const MAY_EXCEED_NOTE = "The prompt may exceed the context window";

/**
 * Whether a model with this template can think: its template writes the thinking (server/images.go `Capabilities`
 * infers the thinking tags around `.Thinking`); qwen2.5's cannot.
 */
export function templateCanThink(template: string = QWEN25_TEMPLATE): boolean {
  return /\.Think(ing)?\b/.test(template);
}

/**
 * The zod-parsed request, or the raw JSON body. The raw body is the more faithful input (zod fills defaults such
 * as parameters.type = "object" that Go would leave empty); fields are checked as Ollama's decoder would, and a
 * field it would reject throws an error naming its JSON pointer.
 */
export type ChatRequestLike = ChatRequest | z.input<typeof ChatRequestSchema> | Record<string, unknown>;
export type GenerateRequestLike = GenerateRequest | z.input<typeof GenerateRequestSchema> | Record<string, unknown>;

interface ParsedTemplate {
  tree: TemplateTree;
  vars: string[];
}
const cache = new Map<string, ParsedTemplate>();

/** Parses (and caches) a model template the way Ollama's template.Parse does, including its touch-up. */
function parse(source: string): ParsedTemplate {
  let t = cache.get(source);
  if (!t) {
    const base = compileTemplate(source, { funcs: ollamaFuncs });
    const vars = base.vars();
    t = { tree: withResponseAppended(base.tree, vars), vars };
    if (cache.size > 32) cache.clear();
    cache.set(source, t);
  }
  return t;
}

/** Ollama executes with missingkey=zero and its own functions. */
function execOpts(opts: RenderOptions): ExecOptions {
  const now = opts.now;
  return { funcs: ollamaFuncs, missingKey: "zero", ...(now ? { now: () => now } : {}) };
}

/** Runs a template the way Ollama's Template.Execute chooses: the messages map, or the legacy loop. */
function execute(
  t: ParsedTemplate,
  messages: MessageInput[],
  system: Prepared["system"],
  tools: GoValue,
  f: OllamaFeatures,
  think: Think,
  opts: RenderOptions,
  sink: SegmentBuilder,
): boolean {
  const eo = execOpts(opts);
  if (t.vars.includes("messages")) {
    executeTree(t.tree, chatRoot(system, messagesValue(messages, f), tools, think), sink, eo);
    return true;
  }
  const cut = cutAfterResponse(t.tree);
  executeLegacy(
    { execute: (d, s) => executeTree(t.tree, d, s, eo) },
    { execute: (d, s) => executeTree(cut, d, s, eo) },
    messages,
    think,
    sink,
  );
  return false;
}

type Think = { think: boolean; level: string; isSet: boolean };

function thinkValues(think: unknown): { think: boolean; level: string; isSet: boolean } {
  if (think === undefined || think === null) return { think: false, level: "", isSet: false };
  if (typeof think === "boolean") return { think, level: "", isSet: true };
  return { think: true, level: String(think), isSet: true };
}

function versionNotes(f: OllamaFeatures, hasTools: boolean): string[] {
  const notes: string[] = [];
  if (f.version === "0.0.0") {
    notes.push(
      "Ollama reports 0.0.0 for builds from source; the oldest behaviour was assumed. Pass the release your build is based on.",
    );
  }
  if (!hasTools) return notes;
  if (f.structDump) {
    notes.push(
      `Ollama ${f.version} (≥ 0.14) shows the model a Go struct dump instead of JSON for each tool: {name description {type <nil> <nil> [required…] {properties as JSON}}}, because its template tool types lost their String() method (ollama/ollama#14601). Releases up to 0.13.5 print compact JSON.`,
    );
  } else {
    notes.push(
      `Ollama ${f.version} prints each tool with Go's json.Marshal: compact, fields in Go struct order (required before properties), property names sorted, unknown JSON Schema keys dropped, and < > & escaped as \\u003c \\u003e \\u0026. From 0.14 it prints a Go struct dump instead (ollama/ollama#14601).`,
    );
  }
  return notes;
}

/** The prompt Ollama builds for a POST /api/chat body. */
export function renderChat(req: ChatRequestLike, opts: RenderOptions = {}): RenderResult {
  const version = opts.ollamaVersion ?? DEFAULT_OLLAMA_VERSION;
  const f = featuresFor(version);
  const template = opts.template ?? QWEN25_TEMPLATE;
  const modelSystem = opts.system ?? QWEN25_SYSTEM;
  const body = req as { messages?: unknown; tools?: unknown; think?: unknown; options?: unknown };
  if (body.messages !== undefined && body.messages !== null && !Array.isArray(body.messages)) {
    throw new RenderInputError("/messages", "expected an array of {role, content}");
  }
  const messages = (body.messages ?? []) as LooseMessage[];
  messages.forEach((m, i) => {
    if (typeof m !== "object" || m === null || Array.isArray(m))
      throw new RenderInputError(`/messages/${i}`, "expected an object {role, content}");
  });
  const notes: string[] = [];

  const dropped: string[] = [];
  let tools: DecodedTool[] | undefined;
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools))
      throw new RenderInputError("/tools", "expected an array of {type, function:{name, description, parameters}}");
    tools = body.tools.map((t, i) => decodeTool(t, i, f, dropped));
  }
  const hasTools = (tools?.length ?? 0) > 0;
  notes.push(...versionNotes(f, hasTools));
  if (messages.length === 0) {
    notes.push("The request has no messages: Ollama only loads the model and renders no prompt.");
    return { text: "", segments: [], ollamaVersion: version, toolFormat: f.structDump ? "struct-dump" : "json", notes };
  }
  if (dropped.length > 0) {
    notes.push(
      `Ollama's Go structs have no place for these keys, so the model never sees them: ${dropped.join(", ")}.`,
    );
  }

  const prepared = collateChat(messages, modelSystem, f);
  if (prepared.defaultSystemUsed) {
    notes.push(
      'The first message is not a system message, so Ollama put the model\'s own SYSTEM text first (path "model SYSTEM").',
    );
  }
  notes.push(...prepared.notes);
  notes.push(...messageNotes(prepared.messages, prepared.origins, template));

  const sink = new SegmentBuilder();
  const usedMessages = execute(
    parse(template),
    prepared.messages,
    prepared.system,
    toolsValue(tools, f),
    f,
    thinkValues(body.think),
    opts,
    sink,
  );
  if (!usedMessages) {
    notes.push(
      "This template does not use .Messages, so Ollama runs its legacy System/Prompt/Response loop and ignores tools.",
    );
  }

  const escaped = sink.segments.filter(
    (s) => s.kind === "tool" && /\\u00(3c|3e|26)|\\u202[89]/.test(sink.text.slice(s.start, s.end)),
  );
  if (escaped.length > 0) {
    notes.push(
      `Go's JSON encoder escaped < > & (and U+2028/U+2029) as \\u003c \\u003e \\u0026 in tool ${[...new Set(escaped.map((s) => s.toolIndex))].join(", ")}; the model reads those escapes, not the characters.`,
    );
  }
  for (const i of sink.specialInContent) {
    notes.push(
      `Message ${i} contains text like <|im_end|>; the runner tokenizes it as a real control token, not as text.`,
    );
  }
  const numCtx = (body.options as { num_ctx?: unknown } | undefined)?.num_ctx;
  const ctx = typeof numCtx === "number" ? numCtx : f.defaultNumCtx;
  // About 3 bytes per token is a generous lower bound for English text and JSON with the Qwen tokenizer.
  if (new TextEncoder().encode(sink.text).length / 3 > ctx) {
    notes.push(
      `${MAY_EXCEED_NOTE} (num_ctx ${ctx}${typeof numCtx === "number" ? "" : ", Ollama's default"}); Ollama would then drop the oldest non-system messages until it fits. This render shows the prompt before truncation.`,
    );
  }
  return {
    text: sink.text,
    segments: sink.segments,
    ollamaVersion: version,
    toolFormat: f.structDump ? "struct-dump" : "json",
    notes,
    ...(dropped.length > 0 ? { droppedKeys: dropped } : {}),
  };
}

function messageNotes(msgs: MessageInput[], origins: number[][], template: string): string[] {
  const notes: string[] = [];
  const qwenLike =
    template.includes("{{ if .Content }}{{ .Content }}") && template.includes("{{- else if .ToolCalls }}");
  msgs.forEach((m, i) => {
    const at = origins[i]!.join(", ");
    if (qwenLike && m.role === "assistant" && m.content !== "" && m.toolCalls.length > 0) {
      notes.push(
        `Message ${at}: assistant content is present, so this template does not render its tool_calls (the model never sees those calls; ollama/ollama#10698).`,
      );
    }
    if (m.role === "tool" && (m.toolName || m.toolCallId)) {
      notes.push(
        `Message ${at}: tool_name/tool_call_id are not shown to the model; the template prints only the content.`,
      );
    }
    if (m.images && m.images.length > 0) {
      notes.push(`Message ${at} has images; this reconstruction does not insert Ollama's [img-N] tags.`);
    }
  });
  const last = msgs[msgs.length - 1];
  if (last?.role === "assistant") {
    notes.push(
      "The last message is from the assistant, so Ollama leaves its turn open (no <|im_end|>) and the model continues it.",
    );
  }
  return notes;
}

/** The prompt Ollama builds for a POST /api/generate body. */
export function renderGenerate(req: GenerateRequestLike, opts: RenderOptions = {}): RenderResult {
  const version = opts.ollamaVersion ?? DEFAULT_OLLAMA_VERSION;
  const f = featuresFor(version);
  const r = req as {
    prompt?: string;
    system?: string;
    raw?: boolean;
    template?: string;
    suffix?: string;
    think?: unknown;
  };
  for (const k of ["prompt", "system", "template", "suffix"] as const) {
    if (r[k] !== undefined && r[k] !== null && typeof r[k] !== "string")
      throw new RenderInputError(`/${k}`, "expected a string");
  }
  const prompt = r.prompt ?? "";
  const notes: string[] = [];
  const toolFormat = f.structDump ? "struct-dump" : "json";
  if (r.raw) {
    const sink = new SegmentBuilder();
    sink.value(prompt, { kind: "message", role: "user", path: "/prompt" }, undefined);
    notes.push(
      "raw: true — Ollama sends the prompt to the model exactly as given, with no template and no system text.",
    );
    return { text: sink.text, segments: sink.segments, ollamaVersion: version, toolFormat, notes };
  }
  if (prompt === "") {
    notes.push("An empty prompt only loads the model; Ollama renders nothing.");
    return { text: "", segments: [], ollamaVersion: version, toolFormat, notes };
  }
  // GenerateHandler treats an empty template as not given (the /v1/completions middleware always sends "").
  const tmpl = parse(r.template || (opts.template ?? QWEN25_TEMPLATE));
  const think = thinkValues(r.think);
  const sink = new SegmentBuilder();
  const promptSpan = {
    start: 0,
    end: prompt.length,
    prov: { kind: "message" as const, role: "user", path: "/prompt" },
  };
  if (r.suffix) {
    executeTree(
      tmpl.tree,
      {
        kind: "map",
        type: "map[string]interface {}",
        entries: [
          ["Prompt", { kind: "string", v: prompt, spans: [promptSpan] }],
          [
            "Suffix",
            {
              kind: "string",
              v: r.suffix,
              spans: [{ start: 0, end: r.suffix.length, prov: { kind: "message", role: "user", path: "/suffix" } }],
            },
          ],
          ["Response", { kind: "string", v: "" }],
          ["Think", { kind: "bool", v: think.think }],
          ["ThinkLevel", { kind: "string", v: think.level }],
          ["IsThinkSet", { kind: "bool", v: think.isSet }],
        ],
        elemZero: { kind: "nil", type: "interface {}" },
      },
      sink,
      execOpts(opts),
    );
    return { text: sink.text, segments: sink.segments, ollamaVersion: version, toolFormat, notes };
  }
  const sys = r.system ? r.system : (opts.system ?? QWEN25_SYSTEM);
  const sysPath = r.system ? "/system" : "model SYSTEM";
  if (!r.system && sys) notes.push("No system was given, so Ollama used the model's own SYSTEM text.");
  const msgs: MessageInput[] = [];
  if (sys)
    msgs.push({
      role: "system",
      content: sys,
      spans: [{ start: 0, end: sys.length, prov: { kind: "system", role: "system", path: sysPath } }],
      toolCalls: [],
    });
  msgs.push({ role: "user", content: prompt, spans: [promptSpan], toolCalls: [] });
  // Ollama's generate handler renders [system, user] through the chat path with an empty (non-nil) tool list.
  const system = { text: sys, spans: msgs[0]!.role === "system" ? msgs[0]!.spans : [] };
  execute(tmpl, msgs, system, toolsValue([], f), f, think, opts, sink);
  return { text: sink.text, segments: sink.segments, ollamaVersion: version, toolFormat, notes };
}
