/**
 * Decodes `tools[]` the way Go's encoding/json fills Ollama's api.Tool structs: keys matched case-insensitively
 * (the last match wins), unknown keys dropped, JSON null leaving the Go zero value, type mismatches rejected
 * (a real Ollama answers 400 for those).
 */
import type { OllamaFeatures } from "./version";

export class RenderInputError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = "RenderInputError";
  }
}

export interface DecodedProperty {
  anyOf?: DecodedProperty[];
  /** PropertyType; undefined is a nil slice. */
  type?: string[];
  /** `any`; undefined is nil. */
  items?: unknown;
  description: string;
  enum?: unknown[];
  /** Nested properties in input order; undefined is nil. */
  properties?: Array<[string, DecodedProperty]>;
  required?: string[];
}

export interface DecodedFunction {
  name: string;
  description: string;
  parameters: {
    type: string;
    defs?: unknown;
    items?: unknown;
    required?: string[];
    properties?: Array<[string, DecodedProperty]>;
  };
}

export interface DecodedTool {
  type: string;
  items?: unknown;
  function: DecodedFunction;
}

type Obj = Record<string, unknown>;

/** Go's field matching: exact key or case-insensitive, in input order, so the last one wins. */
function fields(obj: Obj, known: string[], path: string, dropped: string[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) {
    const exact = known.find((n) => n === k);
    const fold = exact ?? known.find((n) => n.toLowerCase() === k.toLowerCase());
    if (fold === undefined) dropped.push(`${path}/${escapePointer(k)}`);
    else out.set(fold, v);
  }
  return out;
}

export const escapePointer = (k: string): string => k.replace(/~/g, "~0").replace(/\//g, "~1");

function isObj(x: unknown): x is Obj {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function goTypeOf(x: unknown): string {
  if (Array.isArray(x)) return "array";
  if (x === null) return "null";
  return typeof x === "object" ? "object" : typeof x;
}

function str(x: unknown, path: string): string {
  if (x === null || x === undefined) return "";
  if (typeof x !== "string")
    throw new RenderInputError(
      path,
      `expected a string, got ${goTypeOf(x)} (a real Ollama rejects this request with 400)`,
    );
  return x;
}

function strs(x: unknown, path: string): string[] | undefined {
  if (x === null || x === undefined) return undefined;
  if (!Array.isArray(x))
    throw new RenderInputError(path, `expected an array of strings, got ${goTypeOf(x)} (Ollama answers 400)`);
  return x.map((s, i) => str(s, `${path}/${i}`));
}

function object(x: unknown, path: string): Obj | undefined {
  if (x === null || x === undefined) return undefined;
  if (!isObj(x)) throw new RenderInputError(path, `expected an object, got ${goTypeOf(x)} (Ollama answers 400)`);
  return x;
}

/** The keys the version's api.ToolProperty struct has (json tags), so the others are dropped. */
function propertyKeys(f: OllamaFeatures): string[] {
  if (f.legacyToolStruct) return ["type", "description", "enum"];
  return [
    ...(f.anyOf ? ["anyOf"] : []),
    "type",
    "items",
    "description",
    "enum",
    ...(f.nestedProperties !== "dropped" ? ["properties"] : []),
    ...(f.propertyRequired ? ["required"] : []),
  ];
}

function propertyType(t: unknown, path: string, f: OllamaFeatures): string[] | undefined {
  if (f.legacyToolStruct) return [str(t, path)];
  // PropertyType.UnmarshalJSON: a string (null decodes as "") or an array of strings.
  if (t === null || typeof t === "string") return [t ?? ""];
  return strs(t, path);
}

function array(x: unknown, path: string): unknown[] {
  if (!Array.isArray(x)) throw new RenderInputError(path, `expected an array, got ${goTypeOf(x)} (Ollama answers 400)`);
  return x;
}

function decodeProperty(x: unknown, path: string, f: OllamaFeatures, dropped: string[]): DecodedProperty {
  const o = object(x, path) ?? {};
  const m = fields(o, propertyKeys(f), path, dropped);
  const p: DecodedProperty = { description: str(m.get("description"), `${path}/description`) };
  if (m.has("type")) p.type = propertyType(m.get("type"), `${path}/type`, f);
  if (m.get("items") !== undefined && m.get("items") !== null) p.items = m.get("items");
  const en = m.get("enum");
  if (en !== undefined && en !== null) {
    p.enum = array(en, `${path}/enum`);
    if (f.legacyToolStruct) p.enum.forEach((e, i) => str(e, `${path}/enum/${i}`));
  }
  const any = m.get("anyOf");
  if (any !== undefined && any !== null) {
    p.anyOf = array(any, `${path}/anyOf`).map((a, i) => decodeProperty(a, `${path}/anyOf/${i}`, f, dropped));
  }
  const props = object(m.get("properties"), `${path}/properties`);
  if (props) p.properties = decodeProperties(props, `${path}/properties`, f, dropped);
  if (m.has("required")) p.required = strs(m.get("required"), `${path}/required`);
  return p;
}

function decodeProperties(
  o: Obj,
  path: string,
  f: OllamaFeatures,
  dropped: string[],
): Array<[string, DecodedProperty]> {
  return Object.entries(o).map(([k, v]) => [k, decodeProperty(v, `${path}/${escapePointer(k)}`, f, dropped)]);
}

/** One `tools[i]` as the version's structs hold it; `dropped` collects JSON pointers of keys Go ignored. */
export function decodeTool(x: unknown, i: number, f: OllamaFeatures, dropped: string[]): DecodedTool {
  const path = `/tools/${i}`;
  const o = object(x, path) ?? {};
  const m = fields(o, ["type", ...(f.legacyToolStruct ? [] : ["items"]), "function"], path, dropped);
  const fo = object(m.get("function"), `${path}/function`) ?? {};
  const fm = fields(fo, ["name", "description", "parameters"], `${path}/function`, dropped);
  const po = object(fm.get("parameters"), `${path}/function/parameters`) ?? {};
  const ppath = `${path}/function/parameters`;
  const pm = fields(
    po,
    ["type", ...(f.legacyToolStruct ? [] : ["$defs", "items"]), "required", "properties"],
    ppath,
    dropped,
  );
  const props = object(pm.get("properties"), `${ppath}/properties`);
  const tool: DecodedTool = {
    type: str(m.get("type"), `${path}/type`),
    function: {
      name: str(fm.get("name"), `${path}/function/name`),
      description: str(fm.get("description"), `${path}/function/description`),
      parameters: {
        type: str(pm.get("type"), `${ppath}/type`),
        ...(pm.get("$defs") != null ? { defs: pm.get("$defs") } : {}),
        ...(pm.get("items") != null ? { items: pm.get("items") } : {}),
        ...(pm.has("required") && pm.get("required") !== null
          ? { required: strs(pm.get("required"), `${ppath}/required`)! }
          : {}),
        ...(props ? { properties: decodeProperties(props, `${ppath}/properties`, f, dropped) } : {}),
      },
    },
  };
  if (m.get("items") != null) tool.items = m.get("items");
  return tool;
}
