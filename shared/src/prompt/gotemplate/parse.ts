/**
 * Go text/template parser (the subset Ollama model templates use: no define/template/block). Like Go, it checks
 * at parse time that functions exist and variables are declared, and turns `{{else if}}` / `{{else with}}` into a
 * nested if/with that shares the outer `{{end}}`.
 */
import type { Arg, Command, Node, Pipe, Pos, TemplateTree } from "./ast";
import { type Token, TemplateSyntaxError, lex } from "./lex";

export { TemplateSyntaxError };

export function parseTemplate(source: string, funcNames: Iterable<string>): TemplateTree {
  const p = new Parser(source, lex(source), new Set(funcNames));
  return { root: p.parseRoot(), source };
}

type ListEnd = { kind: "eof" } | { kind: "end"; pos: Pos } | { kind: "else"; pos: Pos };

class Parser {
  private i = 0;
  private vars: string[] = ["$"];
  private rangeDepth = 0;

  constructor(
    private readonly src: string,
    private readonly toks: Token[],
    private readonly funcs: Set<string>,
  ) {}

  parseRoot(): Node[] {
    const { nodes, end } = this.itemList();
    if (end.kind === "end") this.fail(end.pos, "unexpected {{end}}");
    if (end.kind === "else") this.fail(end.pos, "unexpected {{else}}");
    return nodes;
  }

  private fail(pos: Pos, msg: string): never {
    throw new TemplateSyntaxError(pos.line, pos.col, msg);
  }

  private peek(): Token | undefined {
    return this.toks[this.i];
  }
  private next(): Token {
    const t = this.toks[this.i++];
    if (!t) this.fail(this.toks[this.toks.length - 1]?.pos ?? { offset: 0, line: 1, col: 1 }, "unexpected EOF");
    return t;
  }
  private skipSpace(): void {
    while (this.peek()?.type === "space") this.i++;
  }
  private peekNonSpace(): Token | undefined {
    let j = this.i;
    while (this.toks[j]?.type === "space") j++;
    return this.toks[j];
  }
  private nextNonSpace(): Token {
    this.skipSpace();
    return this.next();
  }

  private itemList(): { nodes: Node[]; end: ListEnd } {
    const nodes: Node[] = [];
    for (;;) {
      const t = this.peek();
      if (!t) return { nodes, end: { kind: "eof" } };
      if (t.type === "text") {
        this.i++;
        nodes.push({ t: "text", text: t.val, pos: t.pos });
        continue;
      }
      const left = this.next(); // "left"
      const kw = this.peekNonSpace();
      if (kw?.type === "keyword") {
        this.nextNonSpace();
        switch (kw.val) {
          case "end":
            this.expectRight("end");
            return { nodes, end: { kind: "end", pos: kw.pos } };
          case "else":
            // `{{else if …}}` / `{{else with …}}` leave the keyword pending for the caller.
            if (this.peekNonSpace()?.type !== "keyword") this.expectRight("else");
            return { nodes, end: { kind: "else", pos: kw.pos } };
          case "if":
          case "with":
          case "range":
            nodes.push(this.control(kw.val, left.pos));
            continue;
          case "break":
          case "continue":
            if (this.rangeDepth === 0) this.fail(kw.pos, `{{${kw.val}}} outside {{range}}`);
            this.expectRight(kw.val);
            nodes.push({ t: kw.val, pos: kw.pos });
            continue;
          default:
            this.fail(
              kw.pos,
              `{{${kw.val}}} is not supported by this interpreter (Ollama model templates do not use it)`,
            );
        }
      }
      const pipe = this.pipeline("command", left.pos);
      nodes.push({ t: "action", pipe, pos: left.pos });
    }
  }

  private expectRight(context: string): void {
    const t = this.nextNonSpace();
    if (t.type !== "right") this.fail(t.pos, `unexpected "${t.val}" in ${context}`);
  }

  private control(kind: "if" | "with" | "range", pos: Pos): Node {
    const mark = this.vars.length;
    const pipe = this.pipeline(kind, pos);
    if (kind === "range") this.rangeDepth++;
    const { nodes: list, end } = this.itemList();
    if (kind === "range") this.rangeDepth--;
    let elseList: Node[] | null = null;
    if (end.kind === "eof") this.fail(pos, `unexpected EOF: {{${kind}}} has no {{end}}`);
    if (end.kind === "else") {
      const chained = this.peekNonSpace();
      if (chained?.type === "keyword" && (chained.val === "if" || chained.val === "with")) {
        if (
          kind === "range" ||
          (kind === "if" && chained.val === "with") ||
          (kind === "with" && chained.val === "if")
        ) {
          this.fail(chained.pos, `unexpected {{else ${chained.val}}} in {{${kind}}}`);
        }
        this.nextNonSpace();
        // The nested control consumes the shared {{end}}.
        elseList = [this.control(chained.val, end.pos)];
      } else {
        const r = this.itemList();
        if (r.end.kind !== "end") this.fail(end.pos, `expected {{end}} after {{else}} of {{${kind}}}`);
        elseList = r.nodes;
      }
    }
    this.vars.length = mark;
    return { t: kind, pipe, list, elseList, pos };
  }

  private pipeline(context: string, pos: Pos): Pipe {
    const startOffset = this.peek()?.pos.offset ?? 0;
    const { decl, isAssign } = this.declarations(context);
    const cmds = this.commands(context, pos);
    // Declared variables are visible after the declaring action, to the end of the enclosing control.
    for (const d of decl) if (!this.vars.includes(d) || !isAssign) this.vars.push(d);
    if (cmds.length === 0) this.fail(pos, `missing value for ${context}`);
    this.checkPipeline(cmds, context);
    const endTok = this.toks[this.i - 1];
    return { decl, isAssign, cmds, pos, src: this.src.slice(startOffset, endTok?.pos.offset ?? startOffset).trim() };
  }

  /** A pipeline's `$x :=`, `$x =` or (in range) `$i, $e :=`; without one, nothing is consumed. */
  private declarations(context: string): { decl: string[]; isAssign: boolean } {
    const v = this.peekNonSpace();
    if (v?.type !== "variable") return { decl: [], isAssign: false };
    const save = this.i;
    this.nextNonSpace();
    const after = this.peekNonSpace();
    if (after?.type === "declare" || after?.type === "assign") {
      this.nextNonSpace();
      const isAssign = after.type === "assign";
      if (isAssign && !this.vars.includes(v.val)) this.fail(v.pos, `undefined variable "${v.val}"`);
      return { decl: [v.val], isAssign };
    }
    if (after?.type === "comma" && context === "range") return this.rangeDeclarations(v.val);
    if (after?.type === "comma") this.fail(after.pos, `too many declarations in ${context}`);
    this.i = save;
    return { decl: [], isAssign: false };
  }

  /** `, $e :=` after a range's first variable. */
  private rangeDeclarations(first: string): { decl: string[]; isAssign: boolean } {
    this.nextNonSpace();
    const v2 = this.nextNonSpace();
    if (v2.type !== "variable") this.fail(v2.pos, "range can only initialize variables");
    const op = this.nextNonSpace();
    if (op.type !== "declare" && op.type !== "assign") this.fail(op.pos, `expected := or = after ${v2.val}`);
    return { decl: [first, v2.val], isAssign: op.type === "assign" };
  }

  /** The `|`-separated commands up to and including the action's closing delimiter. */
  private commands(context: string, pos: Pos): Command[] {
    const cmds: Command[] = [];
    for (;;) {
      const t = this.peekNonSpace();
      if (!t) this.fail(pos, "unclosed action");
      if (t.type === "right") {
        this.nextNonSpace();
        return cmds;
      }
      if (t.type === "rparen") this.fail(t.pos, "unexpected right paren");
      cmds.push(this.command());
      const sep = this.peekNonSpace();
      if (sep?.type === "pipe") this.nextNonSpace();
      else if (sep?.type !== "right") this.fail(sep?.pos ?? pos, `unexpected "${sep?.val}" in ${context}`);
    }
  }

  private checkPipeline(cmds: Command[], context: string): void {
    const first = cmds[0]!.args[0]!;
    if (first.t === "nil") this.fail(first.pos, "nil is not a command");
    for (const c of cmds.slice(1)) {
      const a = c.args[0]!;
      if (a.t === "bool" || a.t === "dot" || a.t === "nil" || a.t === "number" || a.t === "string") {
        this.fail(a.pos, `non executable command in pipeline stage ${cmds.indexOf(c) + 1} of ${context}`);
      }
    }
  }

  private command(): Command {
    const args: Arg[] = [];
    const pos = this.peekNonSpace()!.pos;
    this.skipSpace();
    for (;;) {
      const t = this.peek();
      if (!t || t.type === "right" || t.type === "pipe" || t.type === "rparen") break;
      if (t.type === "space") {
        this.skipSpace();
        continue;
      }
      args.push(this.operand());
      const after = this.peek();
      if (
        after &&
        after.type !== "space" &&
        after.type !== "right" &&
        after.type !== "pipe" &&
        after.type !== "rparen"
      ) {
        this.fail(after.pos, `missing space? unexpected "${after.val}" in operand`);
      }
    }
    if (args.length === 0) this.fail(pos, "missing value for command");
    return { args, pos };
  }

  private operand(): Arg {
    const term = this.term();
    if (this.peek()?.type !== "field") return term;
    const idents: string[] = [];
    while (this.peek()?.type === "field") idents.push(this.next().val.slice(1));
    switch (term.t) {
      case "field":
        return { ...term, idents: [...term.idents, ...idents] };
      case "var":
        return { ...term, idents: [...term.idents, ...idents] };
      case "bool":
      case "string":
      case "number":
      case "nil":
      case "dot":
        return this.fail(
          term.pos,
          `unexpected . after term "${this.src.slice(term.pos.offset, this.toks[this.i - 1]!.pos.offset)}"`,
        );
      default:
        return { t: "chain", node: term, idents, pos: term.pos };
    }
  }

  private term(): Arg {
    const t = this.next();
    switch (t.type) {
      case "ident":
        if (!this.funcs.has(t.val)) this.fail(t.pos, `function "${t.val}" not defined`);
        return { t: "ident", name: t.val, pos: t.pos };
      case "dot":
        return { t: "dot", pos: t.pos };
      case "nil":
        return { t: "nil", pos: t.pos };
      case "bool":
        return { t: "bool", v: t.val === "true", pos: t.pos };
      case "variable": {
        if (!this.vars.includes(t.val)) this.fail(t.pos, `undefined variable "${t.val}"`);
        return { t: "var", name: t.val, idents: [], pos: t.pos };
      }
      case "field":
        return { t: "field", idents: [t.val.slice(1)], pos: t.pos };
      case "number":
      case "char":
        return this.number(t);
      case "string":
        return { t: "string", v: unquote(t.val, (m) => this.fail(t.pos, m)), pos: t.pos };
      case "rawstring":
        return { t: "string", v: t.val.slice(1, -1).replace(/\r/g, ""), pos: t.pos };
      case "lparen": {
        const pipe = this.pipelineInParens(t.pos);
        return { t: "pipe", pipe, pos: t.pos };
      }
      default:
        return this.fail(t.pos, `unexpected "${t.val}" in operand`);
    }
  }

  private pipelineInParens(pos: Pos): Pipe {
    const start = this.i;
    const cmds: Command[] = [];
    for (;;) {
      const t = this.peekNonSpace();
      if (!t || t.type === "right") this.fail(pos, "unclosed left paren");
      if (t.type === "rparen") {
        this.nextNonSpace();
        break;
      }
      cmds.push(this.command());
      const sep = this.peekNonSpace();
      if (sep?.type === "pipe") this.nextNonSpace();
    }
    if (cmds.length === 0) this.fail(pos, "missing value for parenthesized pipeline");
    this.checkPipeline(cmds, "parenthesized pipeline");
    const src = this.src.slice(this.toks[start]?.pos.offset ?? pos.offset, this.toks[this.i - 1]!.pos.offset);
    return { decl: [], isAssign: false, cmds, pos, src: src.trim() };
  }

  private number(t: Token): Arg {
    if (t.type === "char") {
      const s = unquote('"' + t.val.slice(1, -1).replace(/"/g, '\\"') + '"', (m) => this.fail(t.pos, m));
      const cp = s.codePointAt(0);
      if (cp === undefined || [...s].length !== 1) this.fail(t.pos, `malformed character constant: ${t.val}`);
      return { t: "number", text: t.val, isInt: true, value: cp, isChar: true, pos: t.pos };
    }
    const text = t.val.replace(/_/g, "");
    if (text.endsWith("i")) this.fail(t.pos, "complex numbers are not supported by this interpreter");
    const neg = text.startsWith("-");
    const body = text.replace(/^[+-]/, "");
    let value: number;
    let isInt = false;
    if (/^0[xX][0-9a-fA-F]+$/.test(body)) {
      value = parseInt(body.slice(2), 16);
      isInt = true;
    } else if (/^0[oO][0-7]+$/.test(body)) {
      value = parseInt(body.slice(2), 8);
      isInt = true;
    } else if (/^0[bB][01]+$/.test(body)) {
      value = parseInt(body.slice(2), 2);
      isInt = true;
    } else if (/^0[0-7]+$/.test(body)) {
      value = parseInt(body, 8);
      isInt = true;
    } else if (/^[0-9]+$/.test(body)) {
      value = Number(body);
      isInt = true;
    } else {
      value = Number(body);
      if (Number.isNaN(value)) this.fail(t.pos, `illegal number syntax: "${t.val}"`);
      // Go treats 1e3 or 2.0 as a float constant, but one with an integral value is also usable as an int.
    }
    return { t: "number", text: t.val, isInt, value: neg ? -value : value, isChar: false, pos: t.pos };
  }
}

/** strconv.Unquote for a double-quoted Go string. */
function unquote(q: string, fail: (m: string) => never): string {
  const bytes: number[] = [];
  const enc = new TextEncoder();
  const s = q.slice(1, -1);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== "\\") {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      bytes.push(...enc.encode(ch));
      i += ch.length - 1;
      continue;
    }
    const e = s[++i];
    const simple: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, "\\": 92, '"': 34, "'": 39 };
    if (e !== undefined && e in simple) bytes.push(simple[e]!);
    else if (e === "x") {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (e === "u" || e === "U") {
      const n = e === "u" ? 4 : 8;
      const cp = parseInt(s.slice(i + 1, i + 1 + n), 16);
      if (Number.isNaN(cp)) fail(`invalid syntax: ${q}`);
      bytes.push(...enc.encode(String.fromCodePoint(cp)));
      i += n;
    } else if (e !== undefined && /[0-7]/.test(e)) {
      bytes.push(parseInt(s.slice(i, i + 3), 8));
      i += 2;
    } else fail(`invalid syntax: ${q}`);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
