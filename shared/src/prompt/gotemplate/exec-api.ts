/**
 * The public shapes of template execution (errors, output sink, options), apart from the executor so callers
 * that only format errors or collect output need not read the interpreter.
 */
import type { TemplateTree } from "./ast";
import type { TemplateFunc } from "./funcs";
import type { GoValue, Provenance, ProvSpan } from "./values";

export class TemplateExecError extends Error {
  constructor(
    readonly line: number,
    readonly col: number,
    readonly at: string,
    readonly detail: string,
  ) {
    super(`template:${line}:${col}: executing at <${at}>: ${detail}`);
    this.name = "TemplateExecError";
  }
}

/** Receives every piece of output: literal template text, or a printed value and where it came from. */
export interface OutputSink {
  literal(text: string): void;
  value(text: string, prov: Provenance | undefined, spans: ProvSpan[] | undefined): void;
}

export interface ExecOptions {
  missingKey?: "invalid" | "zero" | "error";
  funcs?: Record<string, TemplateFunc>;
  now?: () => Date;
}

export interface CompiledTemplate {
  tree: TemplateTree;
  execute(data: GoValue, sink: OutputSink): void;
  /** Identifiers the template mentions (fields and variables), lowercased, as Ollama's Template.Vars(). */
  vars(): string[];
}
