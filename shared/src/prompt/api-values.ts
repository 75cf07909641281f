/**
 * The Go values Ollama's template sees, per version (reference §2.2–§2.4):
 *  - ≤ 0.13.x: api.Tools / api.Tool / api.ToolFunction (pointer String() = compact JSON) and []*api.Message,
 *    whose tool-call arguments print through (*ToolCallFunctionArguments).String() (JSON, nil → null);
 *  - ≥ 0.14: templateTools / templateTool / templateToolFunction (no String(): fmt dumps the struct, with
 *    templateProperties printed as JSON), []*templateMessage, and templateArgs (JSON, nil → {}).
 */
import {
  type GoField,
  type GoValue,
  type Provenance,
  type ProvSpan,
  NIL_ANY,
  goBool,
  goInt,
  goString,
  goStrings,
  jsonToGo,
} from "./gotemplate/values";
import type { DecodedProperty, DecodedTool } from "./tool-decode";
import type { OllamaFeatures } from "./version";
import { goJsonString } from "../json/go-json";
import { marshalGo } from "./marshal-go";

const field = (name: string, value: GoValue, json?: string, omitempty = false): GoField =>
  json === undefined ? { name, value } : { name, value, json: { name: json, omitempty } };

const anyValue = (x: unknown): GoValue => (x === undefined ? NIL_ANY : jsonToGo(x));

function propertyType(t: string[] | undefined): GoValue {
  const v: GoValue =
    t === undefined
      ? { kind: "slice", type: "api.PropertyType", items: [], isNil: true }
      : { kind: "slice", type: "api.PropertyType", items: t.map((s) => goString(s)) };
  v.methods = {
    // A single type marshals as a plain string; otherwise as an array (null when nil).
    json: () =>
      t && t.length === 1 ? goJsonString(t[0]!) : t === undefined ? "null" : "[" + t.map(goJsonString).join(",") + "]",
    string: {
      pointer: false,
      fn: () => (!t || t.length === 0 ? "" : t.length === 1 ? t[0]! : "[" + t.join(" ") + "]"),
    },
  };
  return v;
}

/** api.ToolProperty as the version defines it. */
export function toolPropertyValue(p: DecodedProperty, f: OllamaFeatures): GoValue {
  const fields: GoField[] = [];
  if (f.legacyToolStruct) {
    fields.push(field("Type", goString(p.type?.[0] ?? ""), "type"));
    fields.push(field("Description", goString(p.description), "description"));
    fields.push(
      field(
        "Enum",
        p.enum
          ? { kind: "slice", type: "[]string", items: p.enum.map((e) => goString(String(e))) }
          : goStrings(undefined),
        "enum",
        true,
      ),
    );
    return { kind: "struct", type: 'struct { Type string "json:\\"type\\""; … }', fields };
  }
  if (f.anyOf) {
    const items = (p.anyOf ?? []).map((a) => toolPropertyValue(a, f));
    fields.push(
      field("AnyOf", { kind: "slice", type: "[]api.ToolProperty", items, isNil: p.anyOf === undefined }, "anyOf", true),
    );
  }
  fields.push(field("Type", propertyType(p.type), "type", f.omitEmptyDescription));
  fields.push(field("Items", anyValue(p.items), "items", true));
  fields.push(field("Description", goString(p.description), "description", f.omitEmptyDescription));
  fields.push(
    field(
      "Enum",
      p.enum ? (jsonToGo(p.enum) as GoValue) : { kind: "slice", type: "[]interface {}", items: [], isNil: true },
      "enum",
      true,
    ),
  );
  if (f.nestedProperties === "sorted") {
    fields.push(field("Properties", propertiesMap(p.properties, f), "properties", true));
  } else if (f.nestedProperties === "ordered") {
    fields.push(field("Properties", orderedPropertiesPtr(p.properties, f), "properties", true));
  }
  if (f.propertyRequired) fields.push(field("Required", goStrings(p.required), "required", true));
  const v: GoValue = { kind: "struct", type: "api.ToolProperty", fields };
  return v;
}

/** map[string]api.ToolProperty: Go maps marshal and print with sorted keys. */
function propertiesMap(
  props: Array<[string, DecodedProperty]> | undefined,
  f: OllamaFeatures,
  type = "map[string]api.ToolProperty",
): Extract<GoValue, { kind: "map" }> {
  const zero: GoValue = { kind: "struct", type: "api.ToolProperty", fields: [] };
  if (props === undefined) return { kind: "map", type, entries: [], elemZero: zero, isNil: true };
  return { kind: "map", type, entries: props.map(([k, p]) => [k, toolPropertyValue(p, f)]), elemZero: zero };
}

/** *api.ToolPropertiesMap (≥ 0.14): keeps the client's key order when marshalled. */
function orderedPropertiesPtr(props: Array<[string, DecodedProperty]> | undefined, f: OllamaFeatures): GoValue {
  if (props === undefined) return { kind: "ptr", type: "*api.ToolPropertiesMap", elem: null };
  const entries: Array<[string, GoValue]> = props.map(([k, p]) => [k, toolPropertyValue(p, f)]);
  const last = new Map(entries);
  const elem: GoValue = {
    kind: "map",
    type: "api.ToolPropertiesMap",
    entries,
    elemZero: NIL_ANY,
    methods: {
      json: () => "{" + [...last.entries()].map(([k, v]) => goJsonString(k) + ":" + marshalGo(v)).join(",") + "}",
    },
  };
  return { kind: "ptr", type: "*api.ToolPropertiesMap", elem };
}

/** A tool prints either whole (`{{ . }}` in llama3.1) or as its function (`{{ .Function }}` in qwen2.5). */
const toolProv = (i: number, part = ""): Provenance => ({ kind: "tool", toolIndex: i, path: `/tools/${i}${part}` });

/** api.Tool (≤ 0.13.x): Tool.String() and (*ToolFunction).String() both print compact JSON. */
function apiTool(t: DecodedTool, i: number, f: OllamaFeatures): GoValue {
  const p = t.function.parameters;
  const params: GoField[] = [field("Type", goString(p.type), "type")];
  if (!f.legacyToolStruct) {
    params.push(field("Defs", anyValue(p.defs), "$defs", true));
    params.push(field("Items", anyValue(p.items), "items", true));
  }
  params.push(field("Required", goStrings(p.required), "required", f.omitEmptyRequired));
  params.push(
    field(
      "Properties",
      f.nestedProperties === "ordered" ? orderedPropertiesPtr(p.properties, f) : propertiesMap(p.properties, f),
      "properties",
    ),
  );
  const fn: GoValue = {
    kind: "struct",
    type: "api.ToolFunction",
    fields: [
      field("Name", goString(t.function.name), "name"),
      field("Description", goString(t.function.description), "description", f.omitEmptyDescription),
      field("Parameters", { kind: "struct", type: "api.ToolFunctionParameters", fields: params }, "parameters"),
    ],
    prov: toolProv(i, "/function"),
  };
  fn.methods = { string: { pointer: true, fn: () => marshalGo(fn) } };
  const tool: GoValue = {
    kind: "struct",
    type: "api.Tool",
    fields: [
      field("Type", goString(t.type), "type"),
      field("Items", anyValue(t.items), "items", true),
      field("Function", fn, "function"),
    ],
    prov: toolProv(i),
  };
  tool.methods = { string: { pointer: false, fn: () => marshalGo(tool) } };
  return tool;
}

/** templateTool (≥ 0.14): only templateTool, templateTools and templateProperties have String(). */
function templateTool(t: DecodedTool, i: number, f: OllamaFeatures): GoValue {
  const p = t.function.parameters;
  const props = propertiesMap(p.properties, f, "template.templateProperties");
  props.methods = { string: { pointer: false, fn: () => (props.isNil ? "{}" : marshalGo(props)) } };
  const fn: GoValue = {
    kind: "struct",
    type: "template.templateToolFunction",
    fields: [
      field("Name", goString(t.function.name), "name"),
      field("Description", goString(t.function.description), "description"),
      field(
        "Parameters",
        {
          kind: "struct",
          type: "template.templateToolFunctionParameters",
          fields: [
            field("Type", goString(p.type), "type"),
            field("Defs", anyValue(p.defs), "$defs", true),
            field("Items", anyValue(p.items), "items", true),
            field("Required", goStrings(p.required), "required", true),
            field("Properties", props, "properties"),
          ],
        },
        "parameters",
      ),
    ],
    prov: toolProv(i, "/function"),
  };
  const tool: GoValue = {
    kind: "struct",
    type: "template.templateTool",
    fields: [
      field("Type", goString(t.type), "type"),
      field("Items", anyValue(t.items), "items", true),
      field("Function", fn, "function"),
    ],
    prov: toolProv(i),
  };
  tool.methods = { string: { pointer: false, fn: () => marshalGo(tool) } };
  return tool;
}

/** The `.Tools` value: nil when the request has no tools (falsy either way). */
export function toolsValue(tools: DecodedTool[] | undefined, f: OllamaFeatures): GoValue {
  const type = f.structDump ? "template.templateTools" : "api.Tools";
  if (tools === undefined) return { kind: "slice", type, items: [], isNil: true };
  const items = tools.map((t, i) => (f.structDump ? templateTool(t, i, f) : apiTool(t, i, f)));
  const v: GoValue = { kind: "slice", type, items };
  v.methods = { string: { pointer: false, fn: () => marshalGo(v) } };
  return v;
}

export interface CallInput {
  id?: string;
  index?: number;
  name: string;
  /** Decoded JSON object; undefined or null when the request had none (a nil map). */
  arguments: Record<string, unknown> | null | undefined;
  messageIndex: number;
  toolCallIndex: number;
}

function toolCallValue(c: CallInput, f: OllamaFeatures): GoValue {
  const base = `/messages/${c.messageIndex}/tool_calls/${c.toolCallIndex}/function`;
  const callProv = (part: string): Provenance => ({
    kind: "tool-call",
    messageIndex: c.messageIndex,
    toolCallIndex: c.toolCallIndex,
    path: `${base}/${part}`,
  });
  const prov = callProv("arguments");
  const isNil = c.arguments == null;
  const args: GoValue = isNil
    ? { kind: "map", type: "", entries: [], elemZero: NIL_ANY, isNil: true, prov }
    : { ...(jsonToGo(c.arguments) as GoValue & { kind: "map" }), prov };
  (args as { type: string }).type = f.structDump ? "template.templateArgs" : "api.ToolCallFunctionArguments";
  (args as { methods?: unknown }).methods = f.structDump
    ? { string: { pointer: false, fn: () => (isNil ? "{}" : marshalGo({ ...args, methods: undefined } as GoValue)) } }
    : { string: { pointer: true, fn: () => marshalGo({ ...args, methods: undefined } as GoValue) } };
  const fn: GoValue = {
    kind: "struct",
    type: f.structDump ? "template.templateToolCallFunction" : "api.ToolCallFunction",
    fields: [
      field("Index", goInt(c.index ?? 0), "index", !f.toolCallId),
      field("Name", goString(c.name, callProv("name")), "name"),
      field("Arguments", args, "arguments"),
    ],
  };
  return {
    kind: "struct",
    type: f.structDump ? "template.templateToolCall" : "api.ToolCall",
    fields: [
      ...(f.toolCallId ? [field("ID", goString(c.id ?? ""), "id", true)] : []),
      field("Function", fn, "function"),
    ],
  };
}

export interface MessageInput {
  role: string;
  content: string;
  /** Where each part of `content` came from (one span per original message when messages were merged). */
  spans: ProvSpan[];
  thinking?: string;
  images?: string[];
  toolCalls: CallInput[];
  toolName?: string;
  toolCallId?: string;
}

function messageValue(m: MessageInput, f: OllamaFeatures): GoValue {
  const calls = m.toolCalls.map((c) => toolCallValue(c, f));
  const content: GoValue = { kind: "string", v: m.content, spans: m.spans };
  const struct: GoValue = {
    kind: "struct",
    type: f.structDump ? "template.templateMessage" : "api.Message",
    fields: [
      field("Role", goString(m.role), "role"),
      field("Content", content, "content"),
      field("Thinking", goString(m.thinking ?? ""), "thinking", true),
      field(
        "Images",
        m.images
          ? { kind: "slice", type: "[]api.ImageData", items: m.images.map((s) => goString(s)) }
          : { kind: "slice", type: "[]api.ImageData", items: [], isNil: true },
        "images",
        true,
      ),
      field(
        "ToolCalls",
        {
          kind: "slice",
          type: f.structDump ? "[]template.templateToolCall" : "[]api.ToolCall",
          items: calls,
          isNil: calls.length === 0,
        },
        "tool_calls",
        true,
      ),
      field("ToolName", goString(m.toolName ?? ""), "tool_name", true),
      field("ToolCallID", goString(m.toolCallId ?? ""), "tool_call_id", true),
    ],
  };
  return { kind: "ptr", type: "*" + struct.type, elem: struct };
}

export function messagesValue(msgs: MessageInput[], f: OllamaFeatures): GoValue {
  return {
    kind: "slice",
    type: f.structDump ? "[]*template.templateMessage" : "[]*api.Message",
    items: msgs.map((m) => messageValue(m, f)),
  };
}

/** The map Ollama executes a messages-style template with (template.go, Execute). */
export function chatRoot(
  system: { text: string; spans: ProvSpan[] },
  messages: GoValue,
  tools: GoValue,
  think: { think: boolean; level: string; isSet: boolean },
): GoValue {
  return {
    kind: "map",
    type: "map[string]interface {}",
    entries: [
      ["System", { kind: "string", v: system.text, spans: system.spans }],
      ["Messages", messages],
      ["Tools", tools],
      ["Response", goString("")],
      ["Think", goBool(think.think)],
      ["ThinkLevel", goString(think.level)],
      ["IsThinkSet", goBool(think.isSet)],
    ],
    elemZero: NIL_ANY,
  };
}
