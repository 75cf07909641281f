/**
 * text/template's builtin functions (and, or, not, len, index, slice, eq, ne, lt, le, gt, ge, print, printf,
 * println, html, js, urlquery, call) over modelled Go values. Arguments arrive unevaluated so `and`/`or` can
 * short-circuit as Go's do since 1.18.
 */
import { formatV, sprint, sprintf, sprintln } from "./fmt";
import {
  type GoValue,
  INVALID,
  addressable,
  goBool,
  goInt,
  goLen,
  goString,
  indirect,
  isTrue,
  typeName,
} from "./values";

export interface FuncContext {
  fail(msg: string): never;
  now(): Date;
}

export type TemplateFunc = (args: Array<() => GoValue>, ctx: FuncContext) => GoValue;

const evalAll = (args: Array<() => GoValue>): GoValue[] => args.map((a) => a());

type BasicKind = "bool" | "int" | "float" | "string" | "invalid" | "other";

function basicKind(v: GoValue): BasicKind {
  const { v: d } = v.kind === "nil" && v.type === "interface {}" ? { v: INVALID } : { v };
  if (d.kind === "bool" || d.kind === "int" || d.kind === "float" || d.kind === "string" || d.kind === "invalid")
    return d.kind;
  return "other";
}

function eqOne(a: GoValue, b: GoValue, ctx: FuncContext): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 !== k2) {
    if (k1 !== "invalid" && k2 !== "invalid") return ctx.fail("error calling eq: incompatible types for comparison");
    return false;
  }
  switch (k1) {
    case "invalid":
      return ctx.fail("error calling eq: invalid type for comparison");
      break;
    case "bool":
    case "int":
    case "float":
    case "string":
      return (a as { v: unknown }).v === (b as { v: unknown }).v;
  }
  const nilA = isNilish(a);
  const nilB = isNilish(b);
  if (nilA || nilB) return nilA === nilB;
  if (a.kind === "slice" || a.kind === "map" || b.kind === "slice" || b.kind === "map") {
    return ctx.fail(`error calling eq: non-comparable type ${formatV(b)}: ${typeName(b)}`);
  }
  return a === b;
}

function isNilish(v: GoValue): boolean {
  return (
    v.kind === "nil" || (v.kind === "ptr" && v.elem === null) || ((v.kind === "slice" || v.kind === "map") && !!v.isNil)
  );
}

function lessThan(name: string, a: GoValue, b: GoValue, ctx: FuncContext): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === "other" || k1 === "bool" || k1 === "invalid")
    return ctx.fail(`error calling ${name}: invalid type for comparison`);
  if (k1 !== k2) return ctx.fail(`error calling ${name}: incompatible types for comparison`);
  return (a as { v: number | string }).v < (b as { v: number | string }).v;
}

/** Bytes of a Go string, for len/slice/index (Go strings are UTF-8 bytes). */
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function toIndex(v: GoValue, ctx: FuncContext, what: string): number {
  if (v.kind === "int") return v.v;
  if (v.kind === "invalid" || (v.kind === "nil" && v.type === "interface {}"))
    return ctx.fail(`error calling ${what}: cannot index slice/array with nil`);
  return ctx.fail(`error calling ${what}: cannot index slice/array with type ${typeName(v)}`);
}

function htmlEscape(s: string): string {
  return s.replace(
    /[<>&'"\0]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&#39;", '"': "&#34;", "\0": "\ufffd" })[c]!,
  );
}

function jsEscape(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === "'") out += "\\'";
    else if (ch === '"') out += '\\"';
    else if (ch === "<") out += "\\u003C";
    else if (ch === ">") out += "\\u003E";
    else if (ch === "&") out += "\\u0026";
    else if (ch === "=") out += "\\u003D";
    else if (c < 0x20) out += "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
    else if (c < 0x80 || /[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/u.test(ch)) out += ch;
    else out += "\\u" + c.toString(16).toUpperCase().padStart(4, "0");
  }
  return out;
}

/** fmt.Sprint of the arguments, except that a single string argument is used as is (evalArgs in funcs.go). */
function argsString(vs: GoValue[]): string {
  if (vs.length === 1 && vs[0]!.kind === "string") return (vs[0] as { v: string }).v;
  return sprint(vs);
}

export const builtinFuncs: Record<string, TemplateFunc> = {
  and(args) {
    let v: GoValue = INVALID;
    for (const a of args) {
      v = a();
      if (!isTrue(v)) return v;
    }
    return v;
  },
  or(args) {
    let v: GoValue = INVALID;
    for (const a of args) {
      v = a();
      if (isTrue(v)) return v;
    }
    return v;
  },
  not(args, ctx) {
    if (args.length !== 1) return ctx.fail(`wrong number of args for not: want 1 got ${args.length}`);
    return goBool(!isTrue(args[0]!()));
  },
  len(args, ctx) {
    if (args.length !== 1) return ctx.fail(`wrong number of args for len: want 1 got ${args.length}`);
    const v = args[0]!();
    const n = goLen(v);
    if (n === undefined) return ctx.fail(`error calling len: len of type ${typeName(v)}`);
    return goInt(n);
  },
  index(args, ctx) {
    const [item, ...idx] = evalAll(args);
    if (!item) return ctx.fail("wrong number of args for index: want at least 1 got 0");
    let cur = item;
    if (cur.kind === "invalid" || (cur.kind === "nil" && cur.type === "interface {}"))
      return ctx.fail("error calling index: index of untyped nil");
    for (const i of idx) {
      const { v } = indirect(cur);
      if (v.kind === "slice") {
        const n = toIndex(i, ctx, "index");
        if (n < 0 || n >= v.items.length) return ctx.fail(`error calling index: index out of range: ${n}`);
        cur = addressable(v.items[n]!);
      } else if (v.kind === "string") {
        const b = utf8(v.v);
        const n = toIndex(i, ctx, "index");
        if (n < 0 || n >= b.length) return ctx.fail(`error calling index: index out of range: ${n}`);
        cur = { kind: "int", v: b[n]!, type: "uint8" };
      } else if (v.kind === "map") {
        if (i.kind !== "string")
          return ctx.fail(`error calling index: value has type ${typeName(i)}; should be string`);
        const e = [...v.entries].reverse().find(([k]) => k === i.v);
        cur = e ? e[1] : v.elemZero;
      } else if (v.kind === "nil" || v.kind === "invalid") {
        return ctx.fail("error calling index: index of nil pointer");
      } else ctx.fail(`error calling index: can't index item of type ${typeName(v)}`);
    }
    return cur;
  },
  slice(args, ctx) {
    const [item, ...idx] = evalAll(args);
    if (!item) return ctx.fail("wrong number of args for slice: want at least 1 got 0");
    if (idx.length > 3) return ctx.fail(`error calling slice: too many slice indexes: ${idx.length}`);
    const { v } = indirect(item);
    const nums = idx.map((i) => toIndex(i, ctx, "slice"));
    if (v.kind === "string") {
      if (nums.length === 3) return ctx.fail("error calling slice: cannot 3-index slice a string");
      const b = utf8(v.v);
      const lo = nums[0] ?? 0;
      const hi = nums[1] ?? b.length;
      if (lo < 0 || hi > b.length || lo > hi)
        return ctx.fail(`error calling slice: index out of range: ${lo > hi ? lo : hi}`);
      return goString(new TextDecoder().decode(b.slice(lo, hi)));
    }
    if (v.kind === "slice") {
      const cap = v.items.length;
      const lo = nums[0] ?? 0;
      const hi = nums[1] ?? v.items.length;
      if (lo < 0 || lo > cap) return ctx.fail(`error calling slice: index out of range: ${lo}`);
      if (hi < lo || hi > cap) return ctx.fail(`error calling slice: index out of range: ${hi}`);
      const { addr: _a, ...rest } = v;
      return { ...rest, isNil: false, items: v.items.slice(lo, hi), methods: undefined } as GoValue;
    }
    if (v.kind === "invalid" || v.kind === "nil") return ctx.fail("error calling slice: slice of untyped nil");
    return ctx.fail(`error calling slice: can't slice item of type ${typeName(v)}`);
  },
  eq(args, ctx) {
    const [a, ...rest] = args;
    if (!a) return ctx.fail("wrong number of args for eq: want at least 1 got 0");
    if (rest.length === 0) return ctx.fail("error calling eq: missing argument for comparison");
    const x = a();
    for (const b of rest) if (eqOne(x, b(), ctx)) return goBool(true);
    return goBool(false);
  },
  ne(args, ctx) {
    if (args.length !== 2) return ctx.fail(`wrong number of args for ne: want 2 got ${args.length}`);
    return goBool(!eqOne(args[0]!(), args[1]!(), ctx));
  },
  lt: (args, ctx) => cmp("lt", args, ctx, (a, b) => lessThan("lt", a, b, ctx)),
  le: (args, ctx) => cmp("le", args, ctx, (a, b) => lessThan("le", a, b, ctx) || eqOne(a, b, ctx)),
  gt: (args, ctx) => cmp("gt", args, ctx, (a, b) => !lessThan("gt", a, b, ctx) && !eqOne(a, b, ctx)),
  ge: (args, ctx) => cmp("ge", args, ctx, (a, b) => !lessThan("ge", a, b, ctx)),
  print: (args) => goString(sprint(evalAll(args))),
  println: (args) => goString(sprintln(evalAll(args))),
  printf(args, ctx) {
    const [f, ...rest] = evalAll(args);
    if (!f || f.kind !== "string") return ctx.fail("error calling printf: the format must be a string");
    return goString(sprintf(f.v, rest));
  },
  html: (args) => goString(htmlEscape(argsString(evalAll(args)))),
  js: (args) => goString(jsEscape(argsString(evalAll(args)))),
  urlquery: (args) =>
    goString(
      encodeURIComponent(argsString(evalAll(args)))
        .replace(/%20/g, "+")
        .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase()),
    ),
  call(args, ctx) {
    const [f] = evalAll(args);
    return ctx.fail(`error calling call: non-function of type ${f ? typeName(f) : "<nil>"}`);
  },
};

function cmp(
  name: string,
  args: Array<() => GoValue>,
  ctx: FuncContext,
  f: (a: GoValue, b: GoValue) => boolean,
): GoValue {
  if (args.length !== 2) return ctx.fail(`wrong number of args for ${name}: want 2 got ${args.length}`);
  return goBool(f(args[0]!(), args[1]!()));
}
