/**
 * Golden renders of the qwen2.5 template for each request under fixtures/requests, in both version families.
 * The expected files under fixtures/golden were derived by running Go's own text/template and encoding/json over
 * structs that mirror Ollama's api types at v0.13.5 and its template types at v0.14.0 (see fixtures/README.md),
 * then read by a person against the template; they are plain text so a diff shows the exact bytes.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatRequestSchema } from "@hopscope/shared/ollama/schemas";
import { renderChat } from "@hopscope/shared/prompt/render";

const dir = join(import.meta.dirname, "fixtures");
const names = readdirSync(join(dir, "requests")).map((f) => f.replace(/\.json$/, "")).sort();

describe.each(["0.13.5", "0.14.0"])("qwen2.5 golden renders, Ollama %s", (version) => {
  it.each(names)("%s", (name) => {
    const req = JSON.parse(readFileSync(join(dir, "requests", `${name}.json`), "utf8"));
    const expected = readFileSync(join(dir, "golden", `${name}.${version}.txt`), "utf8");
    const r = renderChat(req, { ollamaVersion: version });
    expect(r.text).toBe(expected);
    expect(r.toolFormat).toBe(version === "0.14.0" ? "struct-dump" : "json");
  });
});

describe("zod-parsed and raw bodies render the same", () => {
  it.each(names)("%s", (name) => {
    const raw = JSON.parse(readFileSync(join(dir, "requests", `${name}.json`), "utf8"));
    const parsed = ChatRequestSchema.parse(raw);
    expect(renderChat(parsed).text).toBe(renderChat(raw).text);
  });
});
