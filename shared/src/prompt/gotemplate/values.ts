/**
 * A small model of the Go values Ollama hands to its templates. text/template is reflective: what a template
 * prints depends on Go kinds (nil interface vs nil pointer vs nil slice), on String() methods and on whether a
 * value is addressable (a pointer-receiver String() is only used on addressable values). JavaScript values
 * cannot carry that information, so templates run over these tagged values instead.
 */
import { compareGoKeys } from "../../json/go-json";

/** Where a piece of rendered text came from (see ../segments.ts). */
export interface Provenance {
  kind: "system" | "tool" | "message" | "tool-call" | "tool-result" | "template";
  role?: string;
  messageIndex?: number;
  toolIndex?: number;
  toolCallIndex?: number;
  path?: string;
}

/** A range of a Go string that came from a known place (a merged message keeps one span per original). */
export interface ProvSpan {
  start: number;
  end: number;
  prov: Provenance;
}

/** Methods a Go type has that templates, fmt and encoding/json look for. */
export interface GoMethods {
  /** `String() string`; `pointer` when the receiver is `*T` (then only addressable values or pointers use it). */
  string?: { pointer: boolean; fn: () => string };
  /** `MarshalJSON`, already compact and HTML-escaped like encoding/json's output. */
  json?: () => string;
}

export interface JsonTag {
  name: string;
  omitempty?: boolean;
}

export interface GoField {
  name: string;
  value: GoValue;
  json?: JsonTag;
}

interface Common {
  /** Addressable in reflect terms: reached through a pointer or a slice element, so `*T` methods apply. */
  addr?: boolean;
  prov?: Provenance;
}

export type GoValue =
  | ({ kind: "invalid" } & Common)
  | ({ kind: "nil"; type: string } & Common)
  | ({ kind: "bool"; v: boolean } & Common)
  | ({ kind: "int"; v: number; type?: string } & Common)
  | ({ kind: "float"; v: number } & Common)
  | ({ kind: "string"; v: string; spans?: ProvSpan[]; type?: string; methods?: GoMethods } & Common)
  | ({ kind: "slice"; type: string; items: GoValue[]; isNil?: boolean; methods?: GoMethods } & Common)
  | ({
      kind: "map";
      type: string;
      entries: Array<[string, GoValue]>;
      elemZero: GoValue;
      isNil?: boolean;
      methods?: GoMethods;
    } & Common)
  | ({ kind: "struct"; type: string; fields: GoField[]; methods?: GoMethods } & Common)
  | ({ kind: "ptr"; type: string; elem: GoValue | null } & Common);

export const INVALID: GoValue = { kind: "invalid" };
export const NIL_ANY: GoValue = { kind: "nil", type: "interface {}" };

export const goString = (v: string, prov?: Provenance): GoValue =>
  prov ? { kind: "string", v, prov } : { kind: "string", v };
export const goInt = (v: number): GoValue => ({ kind: "int", v });
export const goFloat = (v: number): GoValue => ({ kind: "float", v });
export const goBool = (v: boolean): GoValue => ({ kind: "bool", v });

/** `[]string`; nil when `items` is undefined (fmt prints `[]`, encoding/json prints `null`). */
export function goStrings(items: string[] | undefined | null): GoValue {
  return items == null
    ? { kind: "slice", type: "[]string", items: [], isNil: true }
    : { kind: "slice", type: "[]string", items: items.map((s) => goString(s)) };
}

/** A decoded JSON value as Go's `any` holds it: objects are map[string]any, numbers float64, null a nil interface. */
export function jsonToGo(x: unknown): GoValue {
  if (x === null || x === undefined) return NIL_ANY;
  if (typeof x === "boolean") return goBool(x);
  if (typeof x === "number") return goFloat(x);
  if (typeof x === "string") return goString(x);
  if (Array.isArray(x)) return { kind: "slice", type: "[]interface {}", items: x.map(jsonToGo) };
  if (typeof x === "object") {
    return {
      kind: "map",
      type: "map[string]interface {}",
      entries: Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, jsonToGo(v)]),
      elemZero: NIL_ANY,
    };
  }
  throw new Error(`cannot model a ${typeof x} as a Go value`);
}

/** Marks a value addressable (element of a slice, field of an addressable struct, target of a pointer). */
export function addressable(v: GoValue): GoValue {
  return v.addr ? v : { ...v, addr: true };
}

/** Follows pointers (Go's indirect): returns the pointee, addressable, or the nil pointer itself. */
export function indirect(v: GoValue): { v: GoValue; isNil: boolean } {
  let cur = v;
  while (cur.kind === "ptr") {
    if (cur.elem === null) return { v: cur, isNil: true };
    cur = addressable(cur.elem);
  }
  if (cur.kind === "nil") return { v: cur, isNil: true };
  return { v: cur, isNil: false };
}

/** Sorted map entries, as fmt, encoding/json and text/template's range see them (Go sorts string keys by bytes). */
export function sortedEntries(entries: Array<[string, GoValue]>): Array<[string, GoValue]> {
  const last = new Map<string, GoValue>();
  for (const [k, v] of entries) last.set(k, v);
  return [...last.entries()].sort(([a], [b]) => compareGoKeys(a, b));
}

/** Go's type name for error messages and %T. */
export function typeName(v: GoValue): string {
  switch (v.kind) {
    case "invalid":
      return "<nil>";
    case "nil":
      return v.type;
    case "bool":
      return "bool";
    case "int":
      return v.type ?? "int";
    case "float":
      return "float64";
    case "string":
      return v.type ?? "string";
    default:
      return v.type;
  }
}

/** Go's len() in bytes for strings (UTF-8), elements for slices and maps; undefined when len does not apply. */
export function goLen(v: GoValue): number | undefined {
  const { v: d } = indirect(v);
  if (d.kind === "string") return new TextEncoder().encode(d.v).length;
  if (d.kind === "slice") return d.items.length;
  if (d.kind === "map") return new Set(d.entries.map(([k]) => k)).size;
  return undefined;
}

/** text/template's truth: false, 0, nil, empty string/slice/map are false; structs are always true. */
export function isTrue(v: GoValue): boolean {
  switch (v.kind) {
    case "invalid":
    case "nil":
      return false;
    case "bool":
      return v.v;
    case "int":
    case "float":
      return v.v !== 0;
    case "string":
      return v.v.length > 0;
    case "slice":
      return v.items.length > 0;
    case "map":
      return goLen(v)! > 0;
    case "struct":
      return true;
    case "ptr":
      return v.elem !== null;
  }
}
