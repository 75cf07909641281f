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
const ALNUM = /[\p{L}\p{N}_]/u;

/** Go's isAlphaNumeric for the code unit at `j` (false past the end), without the regex for ASCII. */
function isAlnumAt(src: string, j: number): boolean {
  const c = src.charCodeAt(j);
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
  return j < src.length && ALNUM.test(src[j]!);
}

/** Splits a template into tokens; text tokens already have the trim markers applied. */
export function lex(src: string): Token[] {
  const lx = new Lexer(src);
  let state: StateFn | null = lexText;
  while (state) state = state(lx);
  return lx.toks;
}

/**
 * One lexer state, as in Go's text/template/parse/lex.go (`stateFn`): it consumes input from `lx.i` and returns
 * the next state, or null at the end of the input.
 */
type StateFn = (lx: Lexer) => StateFn | null;

/** Lexes one token inside an action, starting at `lx.i`. */
type TokenFn = (lx: Lexer) => void;

class Lexer {
  readonly toks: Token[] = [];
  /** Offset of each line's first character, for positions by binary search. */
  private readonly lineStarts = [0];
  /** The next offset to read. */
  i = 0;
  /** The action just closed with ` -}}`: the next text loses its leading spaces. */
  trimNext = false;
  /** Offset of the open action's `{{`. */
  open = 0;
  parenDepth = 0;

  constructor(readonly src: string) {
    for (let i = 0; i < src.length; i++) if (src[i] === "\n") this.lineStarts.push(i + 1);
  }

  posAt(offset: number): Pos {
    const { lineStarts } = this;
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { offset, line: lo + 1, col: offset - lineStarts[lo]! + 1 };
  }

  fail(offset: number, msg: string): never {
    const p = this.posAt(offset);
    throw new TemplateSyntaxError(p.line, p.col, msg);
  }

  /** Adds a token for src[start, end) and moves past it. */
  emit(type: TokType, start: number, end: number): void {
    this.toks.push({ type, val: this.src.slice(start, end), pos: this.posAt(start) });
    this.i = end;
  }
}

/** Go's lexText: text up to the next `{{`, trimmed by the markers on either side. */
function lexText(lx: Lexer): StateFn | null {
  const { src } = lx;
  let open = src.indexOf("{{", lx.i);
  if (open < 0) open = src.length;
  let start = lx.i;
  let end = open;
  if (lx.trimNext) {
    while (start < end && isSpace(src[start])) start++;
    lx.trimNext = false;
  }
  const leftTrim = open < src.length && src[open + 2] === "-" && isSpace(src[open + 3]);
  if (leftTrim) while (end > start && isSpace(src[end - 1])) end--;
  if (end > start) lx.toks.push({ type: "text", val: src.slice(start, end), pos: lx.posAt(start) });
  if (open >= src.length) return null;
  lx.open = open;
  lx.i = open + 2 + (leftTrim ? 2 : 0);
  // Comments must follow the delimiter (and trim marker) directly.
  return src.startsWith("/*", lx.i) ? lexComment : lexLeftDelim;
}

/** Go's lexComment: a comment is a whole action, ending right at the closing delimiter. */
function lexComment(lx: Lexer): StateFn {
  const { src } = lx;
  const end = src.indexOf("*/", lx.i + 2);
  if (end < 0) lx.fail(lx.open, "unclosed comment");
  const i = end + 2;
  if (src.startsWith("}}", i)) lx.i = i + 2;
  else if (isSpace(src[i]) && src.startsWith("-}}", i + 1)) {
    lx.i = i + 4;
    lx.trimNext = true;
  } else lx.fail(i, "comment ends before closing delimiter");
  return lexText;
}

function lexLeftDelim(lx: Lexer): StateFn {
  lx.toks.push({ type: "left", val: "{{", pos: lx.posAt(lx.open) });
  lx.parenDepth = 0;
  return lexInsideAction;
}

/** Go's lexInsideAction: the tokens of one action, up to its closing delimiter. */
function lexInsideAction(lx: Lexer): StateFn {
  const { src } = lx;
  for (;;) {
    const i = lx.i;
    if (i >= src.length) lx.fail(lx.open, "unclosed action");
    const c = src.charCodeAt(i);
    const trim = isSpace(src[i]) && src.startsWith("-}}", i + 1);
    if (trim || (c === RIGHT_BRACE && src.charCodeAt(i + 1) === RIGHT_BRACE)) return lexRightDelim(lx, trim);
    const lexToken = (c < 128 ? TOKEN_FNS[c] : undefined) ?? (isAlnumAt(src, i) ? lexWord : undefined);
    if (!lexToken) return lx.fail(i, `unrecognized character in action: ${JSON.stringify(src[i])}`);
    lexToken(lx);
  }
}

/** `}}`, or ` -}}` (`trim`), which also trims the spaces that start the next text. */
function lexRightDelim(lx: Lexer, trim: boolean): StateFn {
  if (lx.parenDepth > 0) lx.fail(lx.i, "unclosed left paren");
  lx.toks.push({ type: "right", val: "}}", pos: lx.posAt(lx.i) });
  lx.i += trim ? 4 : 2;
  lx.trimNext = trim;
  return lexText;
}

/** Spaces, stopping before a " -}}" so lexInsideAction sees the space of the trim marker. */
function lexSpace(lx: Lexer): void {
  const { src, i } = lx;
  let j = i;
  while (j < src.length && isSpace(src[j]) && !src.startsWith("-}}", j + 1)) j++;
  lx.emit("space", i, j);
}

const single =
  (type: TokType): TokenFn =>
  (lx) =>
    lx.emit(type, lx.i, lx.i + 1);

function lexDeclare(lx: Lexer): void {
  if (lx.src[lx.i + 1] !== "=") lx.fail(lx.i, "expected :=");
  lx.emit("declare", lx.i, lx.i + 2);
}

function lexLeftParen(lx: Lexer): void {
  lx.parenDepth++;
  lx.emit("lparen", lx.i, lx.i + 1);
}

function lexRightParen(lx: Lexer): void {
  lx.parenDepth--;
  if (lx.parenDepth < 0) lx.fail(lx.i, "unexpected right paren");
  lx.emit("rparen", lx.i, lx.i + 1);
}

/**
 * Where the quote closing the one at `lx.i` is (or the end of the input), skipping escaped characters; a
 * newline inside fails with `msg`.
 */
function closingQuote(lx: Lexer, quote: string, msg: string): number {
  const { src, i } = lx;
  let j = i + 1;
  while (j < src.length && src[j] !== quote) {
    if (src[j] === "\\") j++;
    if (src[j] === "\n" || j >= src.length) lx.fail(i, msg);
    j++;
  }
  return j;
}

/** A quoted string with its quotes; escapes are skipped here and decoded by the parser. */
function lexQuote(lx: Lexer): void {
  const j = closingQuote(lx, '"', "unterminated quoted string");
  if (j >= lx.src.length) lx.fail(lx.i, "unterminated quoted string");
  lx.emit("string", lx.i, j + 1);
}

function lexRawQuote(lx: Lexer): void {
  const j = lx.src.indexOf("`", lx.i + 1);
  if (j < 0) lx.fail(lx.i, "unterminated raw quoted string");
  lx.emit("rawstring", lx.i, j + 1);
}

/**
 * A character constant with its quotes. One running into the end of the input is not an error here: the
 * action is then unclosed, and lexInsideAction says so.
 */
function lexChar(lx: Lexer): void {
  lx.emit("char", lx.i, closingQuote(lx, "'", "unterminated character constant") + 1);
}

function lexVariable(lx: Lexer): void {
  const { src, i } = lx;
  let j = i + 1;
  while (isAlnumAt(src, j)) j++;
  lx.emit("variable", i, j);
}

/** `.` alone, a `.Field`, or a number such as `.5`. */
function lexDot(lx: Lexer): void {
  const { src, i } = lx;
  if (/[0-9]/.test(src[i + 1] ?? "")) return lexNumber(lx);
  let j = i + 1;
  while (isAlnumAt(src, j)) j++;
  lx.emit(j === i + 1 ? "dot" : "field", i, j);
}

/** Go's number syntax (sticky, so it matches at lastIndex without copying the rest of the source). */
const NUMBER =
  /[+-]?(0[xX][0-9a-fA-F_]*(\.[0-9a-fA-F_]*)?([pP][+-]?[0-9_]+)?|0[oObB][0-9_]+|[0-9_]*\.?[0-9_]*([eE][+-]?[0-9_]+)?)i?/y;

function lexNumber(lx: Lexer): void {
  const { src, i } = lx;
  NUMBER.lastIndex = i;
  const n = NUMBER.exec(src)![0];
  if (n === "" || n === "+" || n === "-" || isAlnumAt(src, i + n.length)) {
    lx.fail(i, `bad number syntax: "${src.slice(i, i + Math.max(1, n.length + 1))}"`);
  }
  lx.emit("number", i, i + n.length);
}

/** A keyword, `true`/`false`, `nil`, or a function name. */
function lexWord(lx: Lexer): void {
  const { src, i } = lx;
  let j = i;
  while (isAlnumAt(src, j)) j++;
  const word = src.slice(i, j);
  const type: TokType = KEYWORDS.has(word)
    ? "keyword"
    : word === "true" || word === "false"
      ? "bool"
      : word === "nil"
        ? "nil"
        : "ident";
  lx.emit(type, i, j);
}

const RIGHT_BRACE = 0x7d;

/**
 * The token an ASCII character starts inside an action, by character code; a letter, digit or `_` not listed
 * here starts a word (lexWord).
 */
const TOKEN_FNS = new Array<TokenFn | undefined>(128).fill(undefined);
const tokenFns: Array<[string, TokenFn]> = [
  [SPACE, lexSpace],
  ["=", single("assign")],
  [":", lexDeclare],
  ["|", single("pipe")],
  ["(", lexLeftParen],
  [")", lexRightParen],
  [",", single("comma")],
  ['"', lexQuote],
  ["`", lexRawQuote],
  ["'", lexChar],
  ["$", lexVariable],
  [".", lexDot],
  ["0123456789+-", lexNumber],
];
for (const [chars, fn] of tokenFns) for (const c of chars) TOKEN_FNS[c.charCodeAt(0)] = fn;
