/**
 * The Go text/template interpreter on its own. fixtures/engine-cases.json holds templates with their expected
 * output (or error); every expectation there was also checked by running Go's text/template (with Ollama's
 * `missingkey=zero` and `json` function) over the same JSON data.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TemplateExecError, compileTemplate, executeToString } from "@hopscope/shared/prompt/gotemplate/exec";
import { TemplateSyntaxError } from "@hopscope/shared/prompt/gotemplate/lex";
import { jsonToGo } from "@hopscope/shared/prompt/gotemplate/values";
import { ollamaFuncs } from "@hopscope/shared/prompt/ollama-funcs";

interface Cases {
  data: unknown;
  cases: Array<{ name: string; template: string; expected: string }>;
  errors: Array<{ name: string; template: string; line: number; contains: string }>;
}
const fx = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "engine-cases.json"), "utf8")) as Cases;
const data = jsonToGo(fx.data);
const run = (src: string, d = data): string =>
  executeToString(compileTemplate(src, { funcs: ollamaFuncs, missingKey: "zero" }), d);

describe("template engine (cases checked against Go)", () => {
  it.each(fx.cases.map((c) => [c.name, c] as const))("%s", (_n, c) => {
    expect(run(c.template)).toBe(c.expected);
  });
  it.each(fx.errors.map((c) => [c.name, c] as const))("error: %s", (_n, c) => {
    let err: unknown;
    try {
      run(c.template);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Error);
    expect(err instanceof TemplateSyntaxError || err instanceof TemplateExecError).toBe(true);
    expect((err as TemplateSyntaxError).line).toBe(c.line);
    expect((err as Error).message).toContain(c.contains);
  });
});

describe("template engine (newer Go features and positions)", () => {
  it("supports {{else with}} (Go 1.23)", () => {
    expect(run("{{ with .Nope }}a{{ else with .O }}<{{ .K }}>{{ else }}none{{ end }}")).toBe("<v>");
    expect(run("{{ with .Nope }}a{{ else with .E }}b{{ else }}none{{ end }}")).toBe("none");
  });
  it("ranges over an integer (Go 1.22)", () => {
    expect(run("{{ range $i := 3 }}{{ $i }}{{ end }}")).toBe("012");
  });
  it("reports line and column of a syntax error", () => {
    try {
      run('ok\n  {{ .A | "x" }}');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TemplateSyntaxError);
      expect((e as TemplateSyntaxError).line).toBe(2);
      expect((e as TemplateSyntaxError).col).toBeGreaterThan(2);
      expect((e as Error).message).toMatch(/^template:2:\d+: non executable command in pipeline stage 2/);
    }
  });
  it("requires a space after {{- and before -}} to trim", () => {
    expect(run("a {{- .S}} b")).toBe("aa b");
    expect(run("a {{.S -}} b")).toBe("a ab");
    expect(run("a {{.S}}\n\n{{- .S}}")).toBe("a aa");
  });
  it("keeps \\v and \\f, which Go does not trim", () => {
    expect(run("a\f {{- .S -}} \vb")).toBe("a\fa\vb");
  });
});
