/**
 * json.Marshal of the Go values the template engine models (structs with their json tags, maps, slices,
 * pointers, and values with their own MarshalJSON), for the `json` template function and for nested
 * marshalling. The encoding rules themselves (strings, numbers, key order) are json/go-json.ts.
 */
import { goJsonNumber, goJsonString } from "../json/go-json";
import { type GoValue, sortedEntries } from "./gotemplate/values";

/** json.Marshal of a modelled Go value (used by the `json` template function and by nested marshalling). */
export function marshalGo(v: GoValue): string {
  switch (v.kind) {
    case "invalid":
    case "nil":
      return "null";
    case "bool":
      return v.v ? "true" : "false";
    case "int":
      return String(v.v);
    case "float":
      return goJsonNumber(v.v);
    case "ptr":
      return v.elem === null ? "null" : marshalGo(v.elem);
    default:
      // A type's own MarshalJSON wins over the encoding of its kind.
      return v.methods?.json ? v.methods.json() : marshalKind(v);
  }
}

type WithMethods = Extract<GoValue, { kind: "string" | "slice" | "map" | "struct" }>;

/** encoding/json's encoding of a string, slice, map or struct that has no MarshalJSON. */
function marshalKind(v: WithMethods): string {
  switch (v.kind) {
    case "string":
      return goJsonString(v.v);
    case "slice":
      return v.isNil ? "null" : "[" + v.items.map(marshalGo).join(",") + "]";
    case "map":
      if (v.isNil) return "null";
      return (
        "{" +
        sortedEntries(v.entries)
          .map(([k, e]) => goJsonString(k) + ":" + marshalGo(e))
          .join(",") +
        "}"
      );
    case "struct": {
      const parts: string[] = [];
      for (const f of v.fields) {
        if (f.json?.omitempty && isEmptyValue(f.value)) continue;
        parts.push(goJsonString(f.json?.name ?? f.name) + ":" + marshalGo(f.value));
      }
      return "{" + parts.join(",") + "}";
    }
  }
}

/** encoding/json's omitempty test: false, 0, nil, and empty string, slice or map. */
export function isEmptyValue(v: GoValue): boolean {
  switch (v.kind) {
    case "invalid":
    case "nil":
      return true;
    case "bool":
      return !v.v;
    case "int":
    case "float":
      return v.v === 0;
    case "string":
      return v.v === "";
    case "slice":
      return v.items.length === 0;
    case "map":
      return v.entries.length === 0;
    case "struct":
      return false;
    case "ptr":
      return v.elem === null;
  }
}
