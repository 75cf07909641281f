/**
 * Go's fmt package for the verbs templates use (%v, %s, %d, %q, %t, %f, %g, %e, %x, %T, %%), applied to modelled
 * Go values. What matters for prompts is %v: struct dumps `{a b}`, `[x y]`, `map[k:v]`, `<nil>`, floats via %g,
 * and String() methods at every depth (value receivers only, below the top: fmt never takes an address).
 */
import { type GoValue, sortedEntries, typeName } from "./values";

/** `String()` as fmt sees it: a value-receiver method, or a pointer-receiver one when the value is a pointer. */
export function stringerOf(v: GoValue, allowAddr: boolean): (() => string) | undefined {
  if (v.kind === "ptr") {
    if (v.elem === null) return undefined;
    const m = "methods" in v.elem ? v.elem.methods?.string : undefined;
    return m?.fn;
  }
  const m = "methods" in v ? v.methods?.string : undefined;
  if (!m) return undefined;
  if (!m.pointer || (allowAddr && v.addr)) return m.fn;
  return undefined;
}

/** Go's %v of a float64: %g with the shortest precision, switching to an exponent at 1e21 or below 1e-4. */
export function formatFloatG(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (f === Infinity) return "+Inf";
  if (f === -Infinity) return "-Inf";
  if (f === 0) return Object.is(f, -0) ? "-0" : "0";
  const [mant, expStr] = f.toExponential().split("e") as [string, string];
  const exp = Number(expStr);
  const neg = mant.startsWith("-");
  const digits = mant.replace("-", "").replace(".", "");
  // strconv.FormatFloat(f, 'g', -1, 64): with the shortest precision, the exponent form is used when
  // exp < -4 || exp >= 6 (so 1e6 prints as 1e+06, unlike encoding/json).
  let body: string;
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    const e = Math.abs(exp);
    body = m + "e" + (exp < 0 ? "-" : "+") + (e < 10 ? "0" + e : String(e));
  } else if (exp < 0) {
    body = "0." + "0".repeat(-exp - 1) + digits;
  } else if (digits.length <= exp + 1) {
    body = digits + "0".repeat(exp + 1 - digits.length);
  } else {
    body = digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
  }
  return (neg ? "-" : "") + body;
}

/** fmt's %v at a depth (0 = the operand itself). */
export function formatV(v: GoValue, depth = 0): string {
  const s = stringerOf(v, false);
  if (s) return s();
  switch (v.kind) {
    case "invalid":
      return depth === 0 ? "<nil>" : "<invalid reflect.Value>";
    case "nil":
      if (v.type.startsWith("[]")) return "[]";
      if (v.type.startsWith("map[")) return "map[]";
      return "<nil>";
    case "bool":
      return v.v ? "true" : "false";
    case "int":
      return String(v.v);
    case "float":
      return formatFloatG(v.v);
    case "string":
      return v.v;
    default:
      return formatComposite(v, depth);
  }
}

type Composite = Extract<GoValue, { kind: "slice" | "map" | "struct" | "ptr" }>;

/** %v of a value holding others, each printed one level deeper. */
function formatComposite(v: Composite, depth: number): string {
  switch (v.kind) {
    case "slice":
      return "[" + v.items.map((i) => formatV(i, depth + 1)).join(" ") + "]";
    case "map":
      return (
        "map[" +
        sortedEntries(v.entries)
          .map(([k, e]) => k + ":" + formatV(e, depth + 1))
          .join(" ") +
        "]"
      );
    case "struct":
      return "{" + v.fields.map((f) => formatV(f.value, depth + 1)).join(" ") + "}";
    case "ptr":
      if (v.elem === null) return "<nil>";
      if (depth === 0 && (v.elem.kind === "struct" || v.elem.kind === "slice" || v.elem.kind === "map")) {
        return "&" + formatV(v.elem, depth + 1);
      }
      // Below the top level fmt prints a pointer's address, which differs between runs.
      return "0xc000000000";
  }
}

const isStringish = (v: GoValue): boolean => v.kind === "string";

/** fmt.Sprint: operands joined, with a space between two operands when neither is a string. */
export function sprint(args: GoValue[]): string {
  let out = "";
  args.forEach((a, i) => {
    if (i > 0 && !isStringish(a) && !isStringish(args[i - 1]!)) out += " ";
    out += formatV(a);
  });
  return out;
}

/** fmt.Sprintln: always a space between operands, and a newline at the end. */
export function sprintln(args: GoValue[]): string {
  return args.map((a) => formatV(a)).join(" ") + "\n";
}

/** strconv.Quote: Go escapes, printable Unicode kept as is. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (c === 7) out += "\\a";
    else if (c === 8) out += "\\b";
    else if (c === 12) out += "\\f";
    else if (c === 10) out += "\\n";
    else if (c === 13) out += "\\r";
    else if (c === 9) out += "\\t";
    else if (c === 11) out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (c >= 0xd800 && c <= 0xdfff) out += "\\ufffd";
    else if (!/[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/u.test(ch)) {
      out += c > 0xffff ? "\\U" + c.toString(16).padStart(8, "0") : "\\u" + c.toString(16).padStart(4, "0");
    } else out += ch;
  }
  return out + '"';
}

function pad(s: string, width: number | undefined, minus: boolean, zero: boolean): string {
  if (width === undefined || s.length >= width) return s;
  if (minus) return s + " ".repeat(width - s.length);
  if (zero) {
    const sign = s.startsWith("-") || s.startsWith("+") ? s[0]! : "";
    return sign + "0".repeat(width - s.length) + s.slice(sign.length);
  }
  return " ".repeat(width - s.length) + s;
}

function bad(verb: string, v: GoValue): string {
  return `%!${verb}(${typeName(v)}=${formatV(v)})`;
}

/** A directive's flags, width and precision (`%-+0# 8.3v`), and where its verb is. */
interface Directive {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  sharp: boolean;
  width: number | undefined;
  prec: number | undefined;
  /** Offset of the verb in the format (past its end when the format ends first). */
  verbAt: number;
}

const DIGITS = /\d*/y;

/** The directive whose `%` is at `percent`. */
function parseDirective(format: string, percent: number): Directive {
  const d: Directive = {
    minus: false,
    plus: false,
    zero: false,
    sharp: false,
    width: undefined,
    prec: undefined,
    verbAt: 0,
  };
  let j = percent + 1;
  for (; j < format.length && "-+0# ".includes(format[j]!); j++) {
    if (format[j] === "-") d.minus = true;
    else if (format[j] === "+") d.plus = true;
    else if (format[j] === "0") d.zero = true;
    else if (format[j] === "#") d.sharp = true;
  }
  DIGITS.lastIndex = j;
  const wm = DIGITS.exec(format)![0];
  if (wm !== "") {
    d.width = Number(wm);
    j += wm.length;
  }
  if (format[j] === ".") {
    DIGITS.lastIndex = j + 1;
    const pm = DIGITS.exec(format)![0];
    d.prec = pm === "" ? 0 : Number(pm);
    j += 1 + pm.length;
  }
  d.verbAt = j;
  return d;
}

type VerbFn = (a: GoValue, d: Directive, verb: string) => string;

const signed = (d: Directive, v: number): string => (d.plus && v >= 0 ? "+" : "");

function hexVerb(a: GoValue, _d: Directive, verb: string): string {
  let h: string;
  if (a.kind === "int") h = a.v.toString(16);
  else if (a.kind === "string")
    h = [...new TextEncoder().encode(a.v)].map((b) => b.toString(16).padStart(2, "0")).join("");
  else return bad(verb, a);
  return verb === "X" ? h.toUpperCase() : h;
}

function fixedVerb(a: GoValue, d: Directive, verb: string): string {
  return a.kind === "float" ? signed(d, a.v) + a.v.toFixed(d.prec ?? 6) : bad(verb, a);
}

/** Each verb's formatting of one operand; a verb not here prints fmt's `%!verb(type=value)`. */
const VERBS: Partial<Record<string, VerbFn>> = {
  v: (a, d) => {
    const s = formatV(a);
    return d.sharp && a.kind === "string" ? goQuote(a.v) : s;
  },
  s: (a, d) => {
    const s = a.kind === "string" || stringerOf(a, false) || a.kind === "slice" ? formatV(a) : bad("s", a);
    return d.prec !== undefined && a.kind === "string" ? [...s].slice(0, d.prec).join("") : s;
  },
  q: (a) => (a.kind === "string" ? goQuote(stringerOf(a, false)?.() ?? a.v) : bad("q", a)),
  d: (a, d) => (a.kind === "int" ? signed(d, a.v) + String(a.v) : bad("d", a)),
  t: (a) => (a.kind === "bool" ? String(a.v) : bad("t", a)),
  f: fixedVerb,
  F: fixedVerb,
  g: (a) => (a.kind === "float" ? formatFloatG(a.v) : bad("g", a)),
  e: (a, d) => (a.kind === "float" ? a.v.toExponential(d.prec ?? 6).replace(/e([+-])(\d)$/, "e$10$2") : bad("e", a)),
  x: hexVerb,
  X: hexVerb,
  T: (a) => typeName(a),
};

/** fmt.Sprintf for the common verbs and flags (`-`, `+`, `0`, width, precision). */
export function sprintf(format: string, args: GoValue[]): string {
  let out = "";
  let argi = 0;
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch !== "%") {
      out += ch;
      continue;
    }
    const d = parseDirective(format, i);
    const verb = format[d.verbAt];
    i = d.verbAt;
    if (verb === undefined) {
      out += "%!(NOVERB)";
      break;
    }
    if (verb === "%") out += "%";
    else if (argi >= args.length) out += `%!${verb}(MISSING)`;
    else {
      const a = args[argi++]!;
      const s = Object.hasOwn(VERBS, verb) ? VERBS[verb]!(a, d, verb) : bad(verb, a);
      out += pad(s, d.width, d.minus, d.zero && !d.minus && verb !== "s");
    }
  }
  if (argi < args.length) out += extraArgs(args.slice(argi));
  return out;
}

/** fmt's note for operands no verb used. */
function extraArgs(extra: GoValue[]): string {
  return "%!(EXTRA " + extra.map((a) => `${typeName(a)}=${formatV(a)}`).join(", ") + ")";
}
