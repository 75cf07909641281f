import type { Arg, Node, Pipe, TemplateTree } from "./ast";

/** Ollama's Template.Vars(): identifiers of fields and variables at any depth of actions and controls, lowercased. */
export function templateVars(tree: TemplateTree): string[] {
  const out = new Set<string>();
  const pipe = (p: Pipe): void => {
    for (const c of p.cmds) for (const a of c.args) arg(a);
  };
  const arg = (a: Arg): void => {
    if (a.t === "field") a.idents.forEach((i) => out.add(i.toLowerCase()));
    else if (a.t === "var") [a.name, ...a.idents].forEach((i) => out.add(i.toLowerCase()));
    else if (a.t === "pipe") pipe(a.pipe);
  };
  const list = (ns: Node[]): void => {
    for (const n of ns) {
      if (n.t === "action") pipe(n.pipe);
      else if (n.t === "if" || n.t === "with" || n.t === "range") {
        pipe(n.pipe);
        list(n.list);
        if (n.elseList) list(n.elseList);
      }
    }
  };
  list(tree.root);
  return [...out].sort();
}
