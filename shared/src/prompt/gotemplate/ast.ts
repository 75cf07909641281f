/** The parse tree of a Go text/template, shaped after Go's text/template/parse nodes. */

export interface Pos {
  offset: number;
  line: number;
  col: number;
}

export type Arg =
  | { t: "field"; idents: string[]; pos: Pos }
  | { t: "var"; name: string; idents: string[]; pos: Pos }
  | { t: "dot"; pos: Pos }
  | { t: "nil"; pos: Pos }
  | { t: "bool"; v: boolean; pos: Pos }
  | { t: "number"; text: string; isInt: boolean; value: number; isChar: boolean; pos: Pos }
  | { t: "string"; v: string; pos: Pos }
  | { t: "ident"; name: string; pos: Pos }
  | { t: "pipe"; pipe: Pipe; pos: Pos }
  | { t: "chain"; node: Arg; idents: string[]; pos: Pos };

export interface Command {
  args: Arg[];
  pos: Pos;
}

export interface Pipe {
  decl: string[];
  isAssign: boolean;
  cmds: Command[];
  pos: Pos;
  /** Source text of the action, for error messages ("at <.Foo>"). */
  src: string;
}

export type Node =
  | { t: "text"; text: string; pos: Pos }
  | { t: "action"; pipe: Pipe; pos: Pos }
  | Branch<"if">
  | Branch<"with">
  | Branch<"range">
  | { t: "break" | "continue"; pos: Pos };

/** A parsed template; `root` is what executes. */
export interface TemplateTree {
  root: Node[];
  source: string;
}

export interface Branch<T extends "if" | "with" | "range"> {
  t: T;
  pipe: Pipe;
  list: Node[];
  elseList: Node[] | null;
  pos: Pos;
}
