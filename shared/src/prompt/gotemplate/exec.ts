/**
 * Executes a parsed Go template over modelled Go values, following text/template's exec.go: field lookup through
 * pointers and maps (with Ollama's `missingkey=zero`), variables scoped to the enclosing control, range over
 * slices/maps/ints with break/continue, and printing through String() methods and fmt rules.
 */
import type { Arg, Node, Pipe, Pos, TemplateTree } from "./ast";
import { formatV, stringerOf } from "./fmt";
import { type FuncContext, type TemplateFunc, builtinFuncs } from "./funcs";
import { parseTemplate } from "./parse";
import { templateVars } from "./vars";
import {
  type GoValue,
  INVALID,
  NIL_ANY,
  addressable,
  goFloat,
  goInt,
  goString,
  indirect,
  isTrue,
  sortedEntries,
  typeName,
} from "./values";

import { TemplateExecError, type CompiledTemplate, type ExecOptions, type OutputSink } from "./exec-api";

export { TemplateExecError, type CompiledTemplate, type ExecOptions, type OutputSink };

/** Parses a template with the given extra functions available (text/template's builtins are always there). */
export function compileTemplate(source: string, opts: ExecOptions = {}): CompiledTemplate {
  const funcs = { ...builtinFuncs, ...(opts.funcs ?? {}) };
  const tree = parseTemplate(source, Object.keys(funcs));
  return {
    tree,
    execute(data, sink) {
      executeTree(tree, data, sink, opts);
    },
    vars: () => templateVars(tree),
  };
}

/** Executes an already parsed (possibly touched-up) tree. */
export function executeTree(tree: TemplateTree, data: GoValue, sink: OutputSink, opts: ExecOptions = {}): void {
  new State(tree, data, sink, { ...builtinFuncs, ...(opts.funcs ?? {}) }, opts).run();
}

/** Plain-string convenience: execute and return the text. */
export function executeToString(t: CompiledTemplate, data: GoValue): string {
  let out = "";
  t.execute(data, { literal: (s) => (out += s), value: (s) => (out += s) });
  return out;
}

class BreakSignal {}
class ContinueSignal {}

class State {
  private vars: Array<{ name: string; value: GoValue }>;
  private node: { pos: Pos; src: string } = { pos: { offset: 0, line: 1, col: 1 }, src: "" };
  private readonly missingKey: "invalid" | "zero" | "error";
  private readonly ctx: FuncContext;

  constructor(
    private readonly tree: TemplateTree,
    private readonly data: GoValue,
    private readonly sink: OutputSink,
    private readonly funcs: Record<string, TemplateFunc>,
    opts: ExecOptions,
  ) {
    this.vars = [{ name: "$", value: data }];
    this.missingKey = opts.missingKey ?? "zero";
    this.ctx = { fail: (m) => this.fail(m), now: opts.now ?? (() => new Date()) };
  }

  run(): void {
    this.walkList(this.data, this.tree.root);
  }

  private fail(msg: string): never {
    throw new TemplateExecError(this.node.pos.line, this.node.pos.col, this.node.src, msg);
  }

  private walkList(dot: GoValue, nodes: Node[]): void {
    for (const n of nodes) this.walk(dot, n);
  }

  private walk(dot: GoValue, n: Node): void {
    switch (n.t) {
      case "text":
        this.sink.literal(n.text);
        return;
      case "action": {
        this.node = { pos: n.pos, src: n.pipe.src };
        const v = this.evalPipeline(dot, n.pipe);
        if (n.pipe.decl.length === 0) this.printValue(v);
        return;
      }
      case "if":
      case "with": {
        const mark = this.vars.length;
        this.node = { pos: n.pos, src: n.pipe.src };
        const v = this.evalPipeline(dot, n.pipe);
        if (isTrue(indirectInterface(v))) this.walkList(n.t === "with" ? v : dot, n.list);
        else if (n.elseList) this.walkList(dot, n.elseList);
        this.vars.length = mark;
        return;
      }
      case "range":
        this.walkRange(dot, n);
        return;
      case "break":
        throw new BreakSignal();
      case "continue":
        throw new ContinueSignal();
    }
  }

  private walkRange(dot: GoValue, n: Extract<Node, { t: "range" }>): void {
    const mark = this.vars.length;
    this.node = { pos: n.pos, src: n.pipe.src };
    const { v: val } = indirect(this.evalPipeline(dot, n.pipe));
    const one = (index: GoValue, elem: GoValue): boolean => {
      const d = n.pipe.decl;
      if (d.length > 0) {
        if (n.pipe.isAssign) {
          if (d.length > 1) {
            this.setVar(d[0]!, index);
            this.setVar(d[1]!, elem);
          } else this.setVar(d[0]!, elem);
        } else {
          this.setTopVar(1, elem);
          if (d.length > 1) this.setTopVar(2, index);
        }
      }
      const inner = this.vars.length;
      try {
        this.walkList(elem, n.list);
      } catch (e) {
        if (e instanceof BreakSignal) return false;
        if (!(e instanceof ContinueSignal)) throw e;
      } finally {
        this.vars.length = inner;
      }
      return true;
    };
    let count = 0;
    switch (val.kind) {
      case "slice":
        for (let i = 0; i < val.items.length; i++) {
          count++;
          if (!one(goInt(i), addressable(val.items[i]!))) break;
        }
        break;
      case "map":
        for (const [k, e] of sortedEntries(val.entries)) {
          count++;
          if (!one(goString(k), e)) break;
        }
        break;
      case "int":
        for (let i = 0; i < val.v; i++) {
          count++;
          if (!one(goInt(i), goInt(i))) break;
        }
        break;
      case "invalid":
      case "nil":
        break;
      default:
        this.fail(`range can't iterate over ${formatV(val)}`);
    }
    if (count === 0 && n.elseList) this.walkList(dot, n.elseList);
    this.vars.length = mark;
  }

  private setVar(name: string, value: GoValue): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i]!.name === name) {
        this.vars[i]!.value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  private setTopVar(n: number, value: GoValue): void {
    this.vars[this.vars.length - n]!.value = value;
  }

  private varValue(name: string): GoValue {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.name === name) return this.vars[i]!.value;
    return this.fail(`undefined variable: ${name}`);
  }

  private evalPipeline(dot: GoValue, pipe: Pipe): GoValue {
    let value: GoValue | undefined;
    for (const cmd of pipe.cmds) value = this.evalCommand(dot, cmd.args, value);
    // text/template unwraps an empty interface here, so a nil `any` becomes "no value".
    let v = value!;
    if (v.kind === "nil" && v.type === "interface {}") v = INVALID;
    for (const d of pipe.decl) {
      if (pipe.isAssign) this.setVar(d, v);
      else this.vars.push({ name: d, value: v });
    }
    return v;
  }

  private evalCommand(dot: GoValue, args: Arg[], final: GoValue | undefined): GoValue {
    const first = args[0]!;
    switch (first.t) {
      case "field":
        return this.evalFieldChain(dot, first.idents, args, final);
      case "var": {
        const v = this.varValue(first.name);
        if (first.idents.length === 0) {
          this.notAFunction(args, final);
          return v;
        }
        return this.evalFieldChain(v, first.idents, args, final);
      }
      case "chain": {
        const base = this.evalArg(dot, first.node);
        return this.evalFieldChain(base, first.idents, args, final);
      }
      case "ident":
        return this.evalFunction(dot, first.name, args.slice(1), final);
      case "pipe":
        this.notAFunction(args, final);
        return this.evalPipeline(dot, first.pipe);
      default:
        this.notAFunction(args, final);
        return this.evalArg(dot, first);
    }
  }

  private notAFunction(args: Arg[], final: GoValue | undefined): void {
    if (args.length > 1 || final !== undefined) {
      this.fail(`can't give argument to non-function ${argText(args[0]!)}`);
    }
  }

  private evalFieldChain(receiver: GoValue, idents: string[], args: Arg[], final: GoValue | undefined): GoValue {
    let r = receiver;
    for (let i = 0; i < idents.length; i++) {
      const last = i === idents.length - 1;
      r = this.evalField(idents[i]!, r, last ? args.length > 1 || final !== undefined : false);
    }
    return r;
  }

  private evalField(name: string, receiver: GoValue, hasArgs: boolean): GoValue {
    if (receiver.kind === "invalid") {
      if (this.missingKey === "error") this.fail(`nil data; no entry for key "${name}"`);
      return INVALID;
    }
    const typ = typeName(receiver);
    const { v, isNil } = indirect(receiver);
    if (v.kind === "nil" && isNil && v.type === "interface {}") this.fail(`nil pointer evaluating ${typ}.${name}`);
    if (name === "String" && stringerOf(v, true)) {
      if (hasArgs) this.fail(`wrong number of args for String: want 0 got more`);
      return goString(stringerOf(v, true)!());
    }
    switch (v.kind) {
      case "struct": {
        const f = v.fields.find((x) => x.name === name);
        if (f) {
          if (hasArgs) this.fail(`${name} has arguments but cannot be invoked as function`);
          return v.addr ? addressable(f.value) : f.value;
        }
        break;
      }
      case "map":
        return this.mapEntry(name, v, hasArgs);
      case "ptr":
        if (isNil) this.fail(`nil pointer evaluating ${typ}.${name}`);
        break;
      case "nil":
        this.fail(`nil pointer evaluating ${typ}.${name}`);
    }
    return this.fail(`can't evaluate field ${name} in type ${typ}`);
  }

  /** A map's entry for `.name` (the last of equal keys), or what missingkey says for an absent one. */
  private mapEntry(name: string, m: Extract<GoValue, { kind: "map" }>, hasArgs: boolean): GoValue {
    if (hasArgs) this.fail(`${name} is not a method but has arguments`);
    for (let i = m.entries.length - 1; i >= 0; i--) if (m.entries[i]![0] === name) return m.entries[i]![1];
    if (this.missingKey === "zero") return m.elemZero;
    if (this.missingKey === "error") this.fail(`map has no entry for key "${name}"`);
    return INVALID;
  }

  /** An argument: a literal, a field/variable/chain (no arguments allowed), or a parenthesised pipeline. */
  evalArg(dot: GoValue, a: Arg): GoValue {
    switch (a.t) {
      case "dot":
        return dot;
      case "nil":
        return NIL_ANY;
      case "bool":
        return { kind: "bool", v: a.v };
      case "string":
        return goString(a.v);
      case "number":
        if (a.isInt) return { kind: "int", v: a.value, ...(a.isChar ? { type: "int32" } : {}) };
        return goFloat(a.value);
      case "field":
        return this.evalFieldChain(dot, a.idents, [a], undefined);
      case "var": {
        const v = this.varValue(a.name);
        return a.idents.length ? this.evalFieldChain(v, a.idents, [a], undefined) : v;
      }
      case "chain":
        return this.evalFieldChain(this.evalArg(dot, a.node), a.idents, [a], undefined);
      case "pipe": {
        const v = this.evalPipeline(dot, a.pipe);
        return v;
      }
      case "ident":
        return this.evalFunction(dot, a.name, [], undefined);
    }
  }

  private evalFunction(dot: GoValue, name: string, args: Arg[], final: GoValue | undefined): GoValue {
    const fn = this.funcs[name];
    if (!fn) this.fail(`"${name}" is not a defined function`);
    const lazy = args.map((a) => () => this.evalArg(dot, a));
    if (final !== undefined) lazy.push(() => final);
    return fn(lazy, this.ctx);
  }

  private printValue(v: GoValue): void {
    let p = v;
    if (p.kind === "ptr") {
      const r = indirect(p);
      if (r.isNil) {
        this.sink.value("<nil>", v.prov, undefined);
        return;
      }
      p = r.v;
    }
    if (p.kind === "invalid") {
      this.sink.value("<no value>", undefined, undefined);
      return;
    }
    const s = stringerOf(p, true);
    if (s) {
      this.sink.value(s(), p.prov ?? v.prov, undefined);
      return;
    }
    if (p.kind === "string") {
      this.sink.value(p.v, p.prov, p.spans);
      return;
    }
    this.sink.value(formatV(p), p.prov ?? v.prov, undefined);
  }
}

function indirectInterface(v: GoValue): GoValue {
  return v.kind === "nil" && v.type === "interface {}" ? INVALID : v;
}

function argText(a: Arg): string {
  switch (a.t) {
    case "string":
      return JSON.stringify(a.v);
    case "number":
      return a.text;
    case "bool":
      return String(a.v);
    case "dot":
      return ".";
    case "nil":
      return "nil";
    default:
      return a.t;
  }
}
