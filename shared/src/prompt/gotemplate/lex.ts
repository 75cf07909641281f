/**
 * Go text/template lexer: text and `{{ }}` actions, `{{- ` / ` -}}` trimming (Go trims " \t\r\n" and requires a
 * space after `{{-` and before `-}}`), `{{/* comments *\/}}`, and the tokens inside actions.
 */
import type { Pos } from "./ast";

export type TokType =
  | "text"
  | "left"
  | "right"
  | "space"
  | "field"
  | "variable"
  | "dot"
  | "ident"
  | "keyword"
  | "bool"
  | "nil"
  | "number"
  | "char"
  | "string"
  | "rawstring"
  | "declare"
  | "assign"
  | "pipe"
  | "lparen"
  | "rparen"
  | "comma";

export interface Token {
  type: TokType;
  val: string;
  pos: Pos;
}

export class TemplateSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly detail: string,
  ) {
    super(`template:${line}:${col}: ${detail}`);
    this.name = "TemplateSyntaxError";
  }
}

const SPACE = " \t\r\n";
const KEYWORDS = new Set(["if", "else", "end", "range", "with", "define", "template", "block", "break", "continue"]);
const isSpace = (c: string | undefined): boolean => c !== undefined && SPACE.includes(c);
const isAlnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** Splits a template into tokens; text tokens already have the trim markers applied. */
export function lex(src: string): Token[] {
  const toks: Token[] = [];
  const lineStarts = [0];
  for (let i = 0; i < src.length; i++) if (src[i] === "\n") lineStarts.push(i + 1);
  const posAt = (offset: number): Pos => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { offset, line: lo + 1, col: offset - lineStarts[lo]! + 1 };
  };
  const fail = (offset: number, msg: string): never => {
    const p = posAt(offset);
    throw new TemplateSyntaxError(p.line, p.col, msg);
  };

  let i = 0;
  let trimNext = false;
  while (i < src.length) {
    let open = src.indexOf("{{", i);
    if (open < 0) open = src.length;
    let text = src.slice(i, open);
    const textStart = i;
    let start = textStart;
    if (trimNext) {
      const before = text.length;
      while (text.length > 0 && isSpace(text[0])) text = text.slice(1);
      start += before - text.length;
      trimNext = false;
    }
    const leftTrim = open < src.length && src[open + 2] === "-" && isSpace(src[open + 3]);
    if (leftTrim) while (text.length > 0 && isSpace(text[text.length - 1])) text = text.slice(0, -1);
    if (text.length > 0) toks.push({ type: "text", val: text, pos: posAt(start) });
    if (open >= src.length) break;

    i = open + 2 + (leftTrim ? 2 : 0);
    // Comments must follow the delimiter (and trim marker) directly and end right at the closing delimiter.
    if (src.startsWith("/*", i)) {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) fail(open, "unclosed comment");
      i = end + 2;
      if (src.startsWith("}}", i)) i += 2;
      else if (isSpace(src[i]) && src.startsWith("-}}", i + 1)) {
        i += 4;
        trimNext = true;
      } else fail(i, "comment ends before closing delimiter");
      continue;
    }
    toks.push({ type: "left", val: "{{", pos: posAt(open) });
    let parenDepth = 0;
    for (;;) {
      if (i >= src.length) fail(open, "unclosed action");
      if (isSpace(src[i]) && src.startsWith("-}}", i + 1)) {
        if (parenDepth > 0) fail(i, "unclosed left paren");
        toks.push({ type: "right", val: "}}", pos: posAt(i) });
        i += 4;
        trimNext = true;
        break;
      }
      if (src.startsWith("}}", i)) {
        if (parenDepth > 0) fail(i, "unclosed left paren");
        toks.push({ type: "right", val: "}}", pos: posAt(i) });
        i += 2;
        break;
      }
      const c = src[i]!;
      const p = posAt(i);
      if (isSpace(c)) {
        // Stop before a " -}}" so the right-delimiter check above sees its space.
        let j = i;
        while (j < src.length && isSpace(src[j]) && !src.startsWith("-}}", j + 1)) j++;
        toks.push({ type: "space", val: src.slice(i, j), pos: p });
        i = j;
        continue;
      }
      if (c === "=") {
        toks.push({ type: "assign", val: "=", pos: p });
        i++;
        continue;
      }
      if (c === ":") {
        if (src[i + 1] !== "=") fail(i, "expected :=");
        toks.push({ type: "declare", val: ":=", pos: p });
        i += 2;
        continue;
      }
      if (c === "|") {
        toks.push({ type: "pipe", val: "|", pos: p });
        i++;
        continue;
      }
      if (c === "(") {
        parenDepth++;
        toks.push({ type: "lparen", val: "(", pos: p });
        i++;
        continue;
      }
      if (c === ")") {
        parenDepth--;
        if (parenDepth < 0) fail(i, "unexpected right paren");
        toks.push({ type: "rparen", val: ")", pos: p });
        i++;
        continue;
      }
      if (c === ",") {
        toks.push({ type: "comma", val: ",", pos: p });
        i++;
        continue;
      }
      if (c === '"') {
        let j = i + 1;
        while (j < src.length && src[j] !== '"') {
          if (src[j] === "\\") j++;
          if (src[j] === "\n" || j >= src.length) fail(i, "unterminated quoted string");
          j++;
        }
        if (j >= src.length) fail(i, "unterminated quoted string");
        toks.push({ type: "string", val: src.slice(i, j + 1), pos: p });
        i = j + 1;
        continue;
      }
      if (c === "`") {
        const j = src.indexOf("`", i + 1);
        if (j < 0) fail(i, "unterminated raw quoted string");
        toks.push({ type: "rawstring", val: src.slice(i, j + 1), pos: p });
        i = j + 1;
        continue;
      }
      if (c === "'") {
        let j = i + 1;
        while (j < src.length && src[j] !== "'") {
          if (src[j] === "\\") j++;
          if (src[j] === "\n" || j >= src.length) fail(i, "unterminated character constant");
          j++;
        }
        toks.push({ type: "char", val: src.slice(i, j + 1), pos: p });
        i = j + 1;
        continue;
      }
      if (c === "$") {
        let j = i + 1;
        while (isAlnum(src[j])) j++;
        toks.push({ type: "variable", val: src.slice(i, j), pos: p });
        i = j;
        continue;
      }
      if (c === "." && !/[0-9]/.test(src[i + 1] ?? "")) {
        let j = i + 1;
        while (isAlnum(src[j])) j++;
        toks.push({ type: j === i + 1 ? "dot" : "field", val: src.slice(i, j), pos: p });
        i = j;
        continue;
      }
      if (/[0-9+\-.]/.test(c)) {
        const m =
          /^[+-]?(0[xX][0-9a-fA-F_]*(\.[0-9a-fA-F_]*)?([pP][+-]?[0-9_]+)?|0[oObB][0-9_]+|[0-9_]*\.?[0-9_]*([eE][+-]?[0-9_]+)?)i?/.exec(
            src.slice(i),
          )!;
        if (m[0] === "" || m[0] === "+" || m[0] === "-" || isAlnum(src[i + m[0].length])) {
          fail(i, `bad number syntax: "${src.slice(i, i + Math.max(1, m[0].length + 1))}"`);
        }
        toks.push({ type: "number", val: m[0], pos: p });
        i += m[0].length;
        continue;
      }
      if (isAlnum(c)) {
        let j = i;
        while (isAlnum(src[j])) j++;
        const word = src.slice(i, j);
        const type: TokType = KEYWORDS.has(word)
          ? "keyword"
          : word === "true" || word === "false"
            ? "bool"
            : word === "nil"
              ? "nil"
              : "ident";
        toks.push({ type, val: word, pos: p });
        i = j;
        continue;
      }
      fail(i, `unrecognized character in action: ${JSON.stringify(c)}`);
    }
  }
  return toks;
}
