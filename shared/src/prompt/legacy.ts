/**
 * Ollama's handling of templates that do not mention `.Messages` (template.go `Parse` and the legacy branch of
 * `Execute`): `{{ .Response }}` is appended when the template mentions neither Messages nor Response, each
 * completed user/assistant exchange executes the whole template, and the last one runs a copy of the template cut
 * right after its first `.Response`, so the prompt ends where the model should continue.
 */
import type { Arg, Node, Pipe, TemplateTree } from "./gotemplate/ast";
import type { CompiledTemplate, OutputSink } from "./gotemplate/exec";
import { type GoValue, NIL_ANY, type ProvSpan, goBool, goString } from "./gotemplate/values";
import type { MessageInput } from "./api-values";

const RESPONSE_ACTION: Node = {
  t: "action",
  pos: { offset: 0, line: 1, col: 1 },
  pipe: {
    decl: [],
    isAssign: false,
    cmds: [
      {
        args: [{ t: "field", idents: ["Response"], pos: { offset: 0, line: 1, col: 1 } }],
        pos: { offset: 0, line: 1, col: 1 },
      },
    ],
    pos: { offset: 0, line: 1, col: 1 },
    src: ".Response",
  },
};

/** Parse's touch-up: append `{{ .Response }}` when the template names neither Messages nor Response. */
export function withResponseAppended(tree: TemplateTree, vars: string[]): TemplateTree {
  if (vars.includes("messages") || vars.includes("response")) return tree;
  return { ...tree, root: [...tree.root, RESPONSE_ACTION] };
}

/** A copy of the tree with everything after the first `.Response` (in Go's deleteNode walk order) removed. */
export function cutAfterResponse(tree: TemplateTree): TemplateTree {
  let cut = false;
  const arg = (a: Arg): Arg | null => {
    if (cut) return null;
    if (a.t === "field" && a.idents.includes("Response")) {
      cut = true;
      return a;
    }
    return a;
  };
  const pipe = (p: Pipe): Pipe | null => {
    const cmds = [];
    for (const c of p.cmds) {
      const args = c.args.map(arg).filter((a): a is Arg => a !== null);
      if (args.length === 0) return null;
      cmds.push({ ...c, args });
    }
    return cmds.length ? { ...p, cmds } : null;
  };
  const list = (ns: Node[]): Node[] => {
    const out: Node[] = [];
    for (const n of ns) {
      const w = node(n);
      if (w) out.push(w);
    }
    return out;
  };
  const node = (n: Node): Node | null => {
    if (cut) return null;
    switch (n.t) {
      case "action": {
        const p = pipe(n.pipe);
        return p ? { ...n, pipe: p } : null;
      }
      case "if":
      case "with":
      case "range": {
        // Go's walk does not look into a branch's own pipeline, only its lists.
        const l = list(n.list);
        const e = n.elseList && !cut ? list(n.elseList) : null;
        return { ...n, list: l, elseList: e };
      }
      default:
        return n;
    }
  };
  return { ...tree, root: list(tree.root) };
}

type Compiled = Pick<CompiledTemplate, "execute">;

/** The legacy loop over messages, writing to `sink`. `full` and `cut` are the template and its cut copy. */
export function executeLegacy(
  full: Compiled,
  cut: Compiled,
  messages: MessageInput[],
  think: { think: boolean; level: string; isSet: boolean },
  sink: OutputSink,
): void {
  type Str = { text: string; spans: ProvSpan[] };
  const empty = (): Str => ({ text: "", spans: [] });
  let system = empty();
  let prompt = empty();
  let response = empty();
  const data = (): GoValue => ({
    kind: "map",
    type: "map[string]interface {}",
    entries: [
      ["System", { kind: "string", v: system.text, spans: system.spans }],
      ["Prompt", { kind: "string", v: prompt.text, spans: prompt.spans }],
      ["Response", { kind: "string", v: response.text, spans: response.spans }],
      ["Think", goBool(think.think)],
      ["ThinkLevel", goString(think.level)],
      ["IsThinkSet", goBool(think.isSet)],
    ],
    elemZero: NIL_ANY,
  });
  const run = (): void => {
    full.execute(data(), sink);
    system = empty();
    prompt = empty();
    response = empty();
  };
  for (const m of messages) {
    const s = { text: m.content, spans: m.spans };
    if (m.role === "system") {
      if (prompt.text !== "" || response.text !== "") run();
      system = s;
    } else if (m.role === "user") {
      if (response.text !== "") run();
      prompt = s;
    } else if (m.role === "assistant") {
      response = s;
    }
  }
  cut.execute(data(), sink);
}
