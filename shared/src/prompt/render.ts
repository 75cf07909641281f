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
import type { GoValue, ProvSpan } from "./gotemplate/values";
import { executeLegacy, cutAfterResponse, withResponseAppended } from "./legacy";
import { ollamaFuncs } from "./ollama-funcs";
import { type LooseMessage, type Prepared, collateChat } from "./prepare";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "./qwen25";
import { MAY_EXCEED_NOTE, outputNotes, preparedNotes, versionNotes } from "./render-notes";
import { type Segment, SegmentBuilder } from "./segments";
import { type DecodedTool, RenderInputError, decodeTool } from "./tool-decode";
import { DEFAULT_OLLAMA_VERSION, type OllamaFeatures, featuresFor } from "./version";

export { DEFAULT_OLLAMA_VERSION, MAY_EXCEED_NOTE };
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

type ChatBody = { messages?: unknown; tools?: unknown; think?: unknown; options?: unknown };

/** The request's messages and tools as Ollama's decoder takes them; `dropped` collects the keys Go ignored. */
function chatInput(
  body: ChatBody,
  f: OllamaFeatures,
): { messages: LooseMessage[]; tools: DecodedTool[] | undefined; dropped: string[] } {
  if (body.messages !== undefined && body.messages !== null && !Array.isArray(body.messages)) {
    throw new RenderInputError("/messages", "expected an array of {role, content}");
  }
  const messages = (body.messages ?? []) as LooseMessage[];
  messages.forEach((m, i) => {
    if (typeof m !== "object" || m === null || Array.isArray(m))
      throw new RenderInputError(`/messages/${i}`, "expected an object {role, content}");
  });
  const dropped: string[] = [];
  let tools: DecodedTool[] | undefined;
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools))
      throw new RenderInputError("/tools", "expected an array of {type, function:{name, description, parameters}}");
    tools = body.tools.map((t, i) => decodeTool(t, i, f, dropped));
  }
  return { messages, tools, dropped };
}

/** The prompt Ollama builds for a POST /api/chat body. */
export function renderChat(req: ChatRequestLike, opts: RenderOptions = {}): RenderResult {
  const version = opts.ollamaVersion ?? DEFAULT_OLLAMA_VERSION;
  const f = featuresFor(version);
  const template = opts.template ?? QWEN25_TEMPLATE;
  const body = req as ChatBody;
  const { messages, tools, dropped } = chatInput(body, f);
  const toolFormat = f.structDump ? "struct-dump" : "json";
  const notes = versionNotes(f, (tools?.length ?? 0) > 0);
  if (messages.length === 0) {
    notes.push("The request has no messages: Ollama only loads the model and renders no prompt.");
    return { text: "", segments: [], ollamaVersion: version, toolFormat, notes };
  }
  if (dropped.length > 0) {
    notes.push(
      `Ollama's Go structs have no place for these keys, so the model never sees them: ${dropped.join(", ")}.`,
    );
  }

  const prepared = collateChat(messages, opts.system ?? QWEN25_SYSTEM, f);
  notes.push(...preparedNotes(prepared, template));
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
  notes.push(...outputNotes(sink, body.options, f));
  return {
    text: sink.text,
    segments: sink.segments,
    ollamaVersion: version,
    toolFormat,
    notes,
    ...(dropped.length > 0 ? { droppedKeys: dropped } : {}),
  };
}

type GenerateBody = {
  prompt?: string;
  system?: string;
  raw?: boolean;
  template?: string;
  suffix?: string;
  think?: unknown;
};

/** The body's string fields, checked as Ollama's decoder would. */
function generateBody(req: GenerateRequestLike): GenerateBody {
  const r = req as GenerateBody;
  for (const k of ["prompt", "system", "template", "suffix"] as const) {
    if (r[k] !== undefined && r[k] !== null && typeof r[k] !== "string")
      throw new RenderInputError(`/${k}`, "expected a string");
  }
  return r;
}

/** The prompt Ollama builds for a POST /api/generate body. */
export function renderGenerate(req: GenerateRequestLike, opts: RenderOptions = {}): RenderResult {
  const version = opts.ollamaVersion ?? DEFAULT_OLLAMA_VERSION;
  const f = featuresFor(version);
  const r = generateBody(req);
  const prompt = r.prompt ?? "";
  const notes: string[] = [];
  const toolFormat = f.structDump ? "struct-dump" : "json";
  const result = (sink: SegmentBuilder): RenderResult => ({
    text: sink.text,
    segments: sink.segments,
    ollamaVersion: version,
    toolFormat,
    notes,
  });
  const sink = new SegmentBuilder();
  if (r.raw) {
    sink.value(prompt, { kind: "message", role: "user", path: "/prompt" }, undefined);
    notes.push(
      "raw: true — Ollama sends the prompt to the model exactly as given, with no template and no system text.",
    );
    return result(sink);
  }
  if (prompt === "") {
    notes.push("An empty prompt only loads the model; Ollama renders nothing.");
    return result(sink);
  }
  // GenerateHandler treats an empty template as not given (the /v1/completions middleware always sends "").
  const tmpl = parse(r.template || (opts.template ?? QWEN25_TEMPLATE));
  const think = thinkValues(r.think);
  const promptSpan: ProvSpan = {
    start: 0,
    end: prompt.length,
    prov: { kind: "message", role: "user", path: "/prompt" },
  };
  if (r.suffix) {
    executeTree(tmpl.tree, suffixRoot(prompt, promptSpan, r.suffix, think), sink, execOpts(opts));
    return result(sink);
  }
  const { messages, system } = generateMessages(r, opts, prompt, promptSpan, notes);
  // Ollama's generate handler renders [system, user] through the chat path with an empty (non-nil) tool list.
  execute(tmpl, messages, system, toolsValue([], f), f, think, opts, sink);
  return result(sink);
}

/** The data a template gets for a prompt with a suffix (fill-in-the-middle): a map, not the chat structs. */
function suffixRoot(prompt: string, promptSpan: ProvSpan, suffix: string, think: Think): GoValue {
  return {
    kind: "map",
    type: "map[string]interface {}",
    entries: [
      ["Prompt", { kind: "string", v: prompt, spans: [promptSpan] }],
      [
        "Suffix",
        {
          kind: "string",
          v: suffix,
          spans: [{ start: 0, end: suffix.length, prov: { kind: "message", role: "user", path: "/suffix" } }],
        },
      ],
      ["Response", { kind: "string", v: "" }],
      ["Think", { kind: "bool", v: think.think }],
      ["ThinkLevel", { kind: "string", v: think.level }],
      ["IsThinkSet", { kind: "bool", v: think.isSet }],
    ],
    elemZero: { kind: "nil", type: "interface {}" },
  };
}

/** The system text (the request's, else the model's) and the prompt, as the messages Ollama renders. */
function generateMessages(
  r: GenerateBody,
  opts: RenderOptions,
  prompt: string,
  promptSpan: ProvSpan,
  notes: string[],
): { messages: MessageInput[]; system: Prepared["system"] } {
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
  return { messages: msgs, system: { text: sys, spans: msgs[0]!.role === "system" ? msgs[0]!.spans : [] } };
}
