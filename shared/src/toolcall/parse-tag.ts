/**
 * The tool-call tag of a model, found in its Go template the way Ollama's tools/template.go `parseTag`
 * does (unchanged from v0.8 to HEAD): the first `{{ if }}` whose pipeline names the field `.ToolCalls`, the
 * first non-blank text inside it (stopping at any other action), cut at the first `{`, trimmed; `{` when
 * there is none. For qwen2.5 that is `<tool_call>`; for llama3.1 `{` (its calls are bare JSON).
 *
 * This needs only the shape of the parse tree (text, if/else, range, with), so it has its own small scanner
 * rather than depending on the full interpreter in prompt/: delimiters, `{{-`/`-}}` trimming, comments,
 * quoted strings inside actions, and `else if`/`else with` chains, which Go nests as an if in the else list.
 */

type Node =
  | { kind: "text"; text: string }
  | { kind: "if" | "range" | "with"; pipe: string; list: Node[]; elseList: Node[] | null }
  | { kind: "action" }
  | { kind: "other" };

interface Action {
  body: string;
  trimLeft: boolean;
  trimRight: boolean;
}

type Item = { type: "text"; text: string } | { type: "action"; action: Action };

const TRIM_SPACE = /[ \t\r\n]/;

/** Split a template into text and actions, applying the trim markers to the neighbouring text. */
function lex(template: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos < template.length) {
    const open = template.indexOf("{{", pos);
    const textEnd = open === -1 ? template.length : open;
    const trimLeft = open !== -1 && template[open + 2] === "-" && TRIM_SPACE.test(template[open + 3] ?? "");
    let text = template.slice(pos, textEnd);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, "");
    if (trimLeft) text = text.replace(/[ \t\r\n]+$/, "");
    if (text !== "") items.push({ type: "text", text });
    if (open === -1) break;
    const bodyStart = open + (trimLeft ? 4 : 2);
    const close = findActionEnd(template, bodyStart);
    if (close === -1) throw new Error(`unclosed action at offset ${open}: a "{{" without its "}}"`);
    const trimRight = template[close - 1] === "-" && close - 2 >= bodyStart && TRIM_SPACE.test(template[close - 2]!);
    const body = template.slice(bodyStart, trimRight ? close - 2 : close).trim();
    if (!body.startsWith("/*")) items.push({ type: "action", action: { body, trimLeft, trimRight } });
    trimNext = trimRight;
    pos = close + 2;
  }
  return items;
}

/** Offset of the `}}` closing an action, skipping quoted strings, raw strings, char constants, comments. */
function findActionEnd(template: string, from: number): number {
  let i = from;
  while (/\s/.test(template[i] ?? "")) i++;
  if (template.startsWith("/*", i)) {
    const end = template.indexOf("*/", i + 2);
    return end === -1 ? -1 : template.indexOf("}}", end + 2);
  }
  for (; i < template.length; i++) {
    const c = template[i];
    if (c === '"' || c === "'") {
      for (i++; i < template.length && template[i] !== c; i++) if (template[i] === "\\") i++;
    } else if (c === "`") {
      i = template.indexOf("`", i + 1);
      if (i === -1) return -1;
    } else if (c === "}" && template[i + 1] === "}") {
      return i;
    }
  }
  return -1;
}

/** The first word of an action and the rest (`else if .X` → "else", "if .X"). */
function keyword(body: string): [string, string] {
  const match = /^([A-Za-z]+)\b\s*([\s\S]*)$/.exec(body);
  return match ? [match[1]!, match[2]!] : ["", body];
}

class TreeBuilder {
  private pos = 0;
  constructor(private readonly items: Item[]) {}

  parseRoot(): Node[] {
    const { nodes, stop } = this.parseList();
    if (stop !== null) throw new Error(`unexpected {{${stop.body}}} outside any if, range or with`);
    return nodes;
  }

  /** Nodes up to the `else`/`end` that closes the current block (null at the end of the template). */
  private parseList(): { nodes: Node[]; stop: Action | null } {
    const nodes: Node[] = [];
    while (this.pos < this.items.length) {
      const item = this.items[this.pos++]!;
      if (item.type === "text") {
        nodes.push({ kind: "text", text: item.text });
        continue;
      }
      const [word, rest] = keyword(item.action.body);
      if (word === "end" || word === "else") return { nodes, stop: item.action };
      if (word === "if" || word === "range" || word === "with") nodes.push(this.parseControl(word, rest));
      else if (word === "define")
        this.parseControl("with", rest); // its own tree, not in Root
      else if (word === "block") {
        this.parseControl("with", rest);
        nodes.push({ kind: "other" }); // Go leaves a TemplateNode in Root
      } else if (word === "template" || word === "break" || word === "continue") nodes.push({ kind: "other" });
      else nodes.push({ kind: "action" });
    }
    return { nodes, stop: null };
  }

  private parseControl(kind: "if" | "range" | "with", pipe: string): Node {
    const { nodes: list, stop } = this.parseList();
    if (stop === null) throw new Error(`{{${kind} ${pipe}}} has no {{end}}`);
    const [word, rest] = keyword(stop.body);
    if (word === "end") return { kind, pipe, list, elseList: null };
    const [elseKind, elsePipe] = keyword(rest);
    if (elseKind === "if" || elseKind === "with") {
      // `{{else if x}}…{{end}}` is `{{else}}{{if x}}…{{end}}{{end}}` sharing one end.
      return { kind, pipe, list, elseList: [this.parseControl(elseKind, elsePipe)] };
    }
    const { nodes: elseList, stop: end } = this.parseList();
    if (end === null || keyword(end.body)[0] !== "end")
      throw new Error(`{{${kind} ${pipe}}} has no {{end}} after {{else}}`);
    return { kind, pipe, list, elseList };
  }
}

/** Split at top level (outside strings and parentheses) on a separator test. */
function splitTopLevel(text: string, isSeparator: (c: string) => boolean): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      for (; j < text.length && text[j] !== c; j++) if (c !== "`" && text[j] === "\\") j++;
      current += text.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (depth === 0 && isSeparator(c)) {
      if (current !== "") parts.push(current);
      current = "";
    } else current += c;
  }
  if (current !== "") parts.push(current);
  return parts;
}

const FIELD_CHAIN = /^(?:\.[\p{L}_][\p{L}\p{N}_]*)+$/u;

/** Go's isToolCallsNode: some argument of some command is a field node whose chain contains ToolCalls. */
function namesToolCalls(pipe: string): boolean {
  const withoutDecl = pipe.replace(/^\$[\w]*(?:\s*,\s*\$[\w]*)?\s*:?=(?!=)/, "");
  return splitTopLevel(withoutDecl, (c) => c === "|").some((command) =>
    splitTopLevel(command, (c) => /\s/.test(c)).some(
      (arg) => FIELD_CHAIN.test(arg) && arg.slice(1).split(".").includes("ToolCalls"),
    ),
  );
}

function findToolCallNode(nodes: Node[]): Node | null {
  for (const node of nodes) {
    if (node.kind !== "if" && node.kind !== "range" && node.kind !== "with") continue;
    if (node.kind === "if" && namesToolCalls(node.pipe)) return node;
    const found = findToolCallNode(node.list) ?? (node.elseList ? findToolCallNode(node.elseList) : null);
    if (found) return found;
  }
  return null;
}

/** Go's unicode.IsSpace set: JS's `\s` minus U+FEFF, plus U+0085. */
const GO_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]";
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, "g");

/** Go's strings.TrimSpace (JS's trim() would also strip U+FEFF). */
function goTrimSpace(text: string): string {
  return text.replace(GO_TRIM, "");
}

/** Go's findTextNode: depth first, skipping blank text, and giving up at any action or the end of a block. */
function findTextNode(nodes: Node[]): string | null {
  for (const node of nodes) {
    switch (node.kind) {
      case "text":
        if (goTrimSpace(node.text) === "") continue;
        return node.text;
      case "if":
      case "range":
      case "with":
        return findTextNode(node.list) ?? (node.elseList ? findTextNode(node.elseList) : null);
      case "action":
        return null;
      case "other":
        continue;
    }
  }
  return null;
}

/**
 * The tool-call tag Ollama derives from a model's Go template.
 *
 * @example parseTag(qwen25Template) === "<tool_call>"
 */
export function parseTag(templateText: string): string {
  const root = new TreeBuilder(lex(templateText)).parseRoot();
  const ifNode = findToolCallNode(root);
  if (ifNode === null || ifNode.kind !== "if") return "{";
  const text = findTextNode(ifNode.list);
  if (text === null) return "{";
  const tag = goTrimSpace(text.replaceAll("\r\n", "\n").split("{")[0]!);
  return tag === "" ? "{" : tag;
}
