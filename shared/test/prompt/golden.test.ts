/**
 * Golden renders of the qwen2.5 template for each request under fixtures/requests, in each release family.
 * The expected files under fixtures/golden were derived by running Go's own text/template and encoding/json over
 * structs that mirror Ollama's api types at v0.13.5 and its template types at v0.14.0 and v0.32.15 (see
 * fixtures/README.md), then read by a person against the template; they are plain text so a diff shows the bytes.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatRequestSchema } from "@hopscope/shared/ollama/schemas";
import { renderChat } from "@hopscope/shared/prompt/render";
import { OLLAMA_FAMILIES, familyOf } from "@hopscope/shared/prompt/version";

const dir = join(import.meta.dirname, "fixtures");
const names = readdirSync(join(dir, "requests"))
  .map((f) => f.replace(/\.json$/, ""))
  .sort();

const golden = (name: string, version: string) => readFileSync(join(dir, "golden", `${name}.${version}.txt`), "utf8");

describe.each(OLLAMA_FAMILIES.map((f) => [f.representative, f] as const))(
  "qwen2.5 golden renders, Ollama %s",
  (version, family) => {
    it.each(names)("%s", (name) => {
      const req = JSON.parse(readFileSync(join(dir, "requests", `${name}.json`), "utf8"));
      const r = renderChat(req, { ollamaVersion: version });
      expect(r.text).toBe(golden(name, version));
      expect(r.toolFormat).toBe(family.toolFormat);
    });
  },
);

describe("every version renders as its family", () => {
  it.each([
    ["0.33.0-rc2", "0.32.15"],
    ["0.30.0", "0.32.15"],
    ["0.20.0-rc0", "0.32.15"],
    ["0.14.3", "0.14.0"],
    ["0.14.0-rc0", "0.14.0"],
    ["0.13.5", "0.13.5"],
  ])("%s renders like %s", (version, representative) => {
    expect(familyOf(version).representative).toBe(representative);
    const req = JSON.parse(readFileSync(join(dir, "requests", "nested-required.json"), "utf8"));
    expect(renderChat(req, { ollamaVersion: version }).text).toBe(golden("nested-required", representative));
  });
  it("keeps a nested property's own required only from 0.20", () => {
    expect(golden("nested-required", "0.32.15")).toContain('"required":["unit","every"]}},"required":["date","time"]}');
    expect(golden("nested-required", "0.14.0")).not.toContain('"required":["date","time"]');
  });
});

describe("zod-parsed and raw bodies render the same", () => {
  it.each(names)("%s", (name) => {
    const raw = JSON.parse(readFileSync(join(dir, "requests", `${name}.json`), "utf8"));
    const parsed = ChatRequestSchema.parse(raw);
    expect(renderChat(parsed).text).toBe(renderChat(raw).text);
  });
});
