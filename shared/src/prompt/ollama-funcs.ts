/**
 * The functions Ollama adds to text/template (template/template.go `funcs`): json, currentDate, yesterdayDate,
 * toTypeScriptType.
 */
import type { TemplateFunc } from "./gotemplate/funcs";
import { type GoValue, goString, indirect } from "./gotemplate/values";
import { marshalGo } from "./marshal-go";

const ymd = (d: Date): string =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

function tsType(v: GoValue): string {
  const { v: p } = indirect(v);
  if (p.kind !== "struct" || p.type !== "api.ToolProperty") return "any";
  const get = (n: string): GoValue | undefined => p.fields.find((f) => f.name === n)?.value;
  const anyOf = get("AnyOf");
  if (anyOf?.kind === "slice" && anyOf.items.length > 0) return anyOf.items.map(tsType).join(" | ");
  const t = get("Type");
  const types = t?.kind === "slice" ? t.items.map((s) => (s.kind === "string" ? s.v : "")) : [];
  if (types.length === 0) return "any";
  const map = (s: string): string =>
    ({
      string: "string",
      number: "number",
      integer: "number",
      boolean: "boolean",
      array: "any[]",
      object: "Record<string, any>",
      null: "null",
    })[s] ?? "any";
  return types.map(map).join(" | ");
}

export const ollamaFuncs: Record<string, TemplateFunc> = {
  json: (args) => goString(args.length === 1 ? marshalGo(args[0]!()) : "null"),
  currentDate: (_args, ctx) => goString(ymd(ctx.now())),
  yesterdayDate: (_args, ctx) => {
    const d = ctx.now();
    return goString(ymd(new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1)));
  },
  toTypeScriptType: (args) => goString(args.length === 1 ? tsType(args[0]!()) : "any"),
};
