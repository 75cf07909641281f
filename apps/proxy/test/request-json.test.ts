/**
 * A big request body read member by member (recording/json-members.ts, recording/request-json.ts): what the
 * recorder reads of it is what JSON.parse reads, the tools counted without parsing them and parsed when
 * asked; anything that is not a JSON object, or is broken or too deep, is parsed whole (and so found not JSON).
 */
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jsonMembers } from "../src/recording/json-members";
import { readRequestJson } from "../src/recording/request-json";

const DIR = fileURLToPath(new URL("../../../tests/fixtures/agents/", import.meta.url));
const bodies = readdirSync(DIR).flatMap((agent) =>
  readdirSync(`${DIR}${agent}`)
    .filter((f) => /^model-\d+\.json$/.test(f))
    .map((f) => {
      const r = JSON.parse(readFileSync(`${DIR}${agent}/${f}`, "utf8")) as { requestBody: string };
      return [`${agent}/${f}`, r.requestBody] as const;
    }),
);
const read = (text: string) => {
  const bytes = Buffer.from(text);
  return readRequestJson(bytes, () => text);
};

describe("an agent's request read member by member", () => {
  it.each(bodies)("%s: the body less its tools, the tools counted, the whole on demand", (_name, text) => {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const r = read(text);
    const { tools, ...rest } = parsed;
    expect(r.json).toEqual(Buffer.byteLength(text) >= 16 * 1024 ? rest : parsed);
    expect(r.toolCount).toBe(Array.isArray(tools) ? tools.length : 0);
    expect(r.whole()).toEqual(parsed);
    expect(JSON.stringify(r.whole())).toBe(JSON.stringify(parsed));
  });

  it("parses a tool list once while it is resent byte for byte (read-only), and a changed list anew", () => {
    const big = bodies.find(
      ([, t]) => Buffer.byteLength(t) >= 16 * 1024 && (JSON.parse(t) as { tools?: unknown }).tools,
    );
    expect(big).toBeDefined();
    const text = big![1];
    const first = read(text).whole() as { tools: unknown[] };
    const again = read(` ${text}`).whole() as { tools: unknown[] };
    expect(again.tools).toBe(first.tools);
    expect(Object.isFrozen(first.tools[0])).toBe(true);
    const parsed = JSON.parse(text) as { tools: { description?: string }[] };
    parsed.tools[0]!.description = "changed";
    const changed = read(JSON.stringify(parsed)).whole() as { tools: { description?: string }[] };
    expect(changed.tools).not.toBe(first.tools);
    expect(changed.tools[0]!.description).toBe("changed");
  });

  it("finds members as JSON.parse does: escapes in keys, nesting, strings with brackets and quotes", () => {
    const text = ` { "a\\"b" : [1, {"x": "]}\\\\"}, [ ]] , "__proto__": {"p": 1}, "e": [], "n": -1.5e3, "s": "{[" } `;
    const b = Buffer.from(text);
    const members = jsonMembers(b);
    expect(members?.map((m) => [m.key, JSON.parse(b.toString("utf8", m.start, m.end)), m.items])).toEqual([
      ['a"b', [1, { x: "]}\\" }, []], 3],
      ["__proto__", { p: 1 }, 0],
      ["e", [], 0],
      ["n", -1500, 0],
      ["s", "{[", 0],
    ]);
  });

  it("keeps a `__proto__` member an own property, as JSON.parse does", () => {
    const text = `{"__proto__": {"polluted": true}, "tools": [${'{"name":"t"},'.repeat(2000)}{"name":"u"}], "pad": "${"x".repeat(20_000)}"}`;
    const r = read(text);
    expect(Object.keys(r.json as object)).toEqual(["__proto__", "pad"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(r.toolCount).toBe(2001);
    expect((r.whole() as { tools: unknown[] }).tools).toHaveLength(2001);
  });

  it("gives up on what is not one JSON object, is cut or nests too deep: the whole is parsed (not JSON)", () => {
    for (const text of ["[1, 2]", '{"a": 1', '{"a": [1, 2}', '{"a": "cut', '{"a": 1} x', "{a: 1}", '{"a" 1}'])
      expect(jsonMembers(Buffer.from(text)), text).toBeNull();
    expect(jsonMembers(Buffer.from(`{"a": ${"[".repeat(1000)}${"]".repeat(1000)}}`))).toBeNull();
    expect(jsonMembers(Buffer.from(`{"a": ${"[".repeat(999)}${"]".repeat(999)}}`))).not.toBeNull();
    const broken = `{"tools": [${'{"name":"t"},'.repeat(2000)}], "x": nope}`;
    expect(read(broken).json).toBeUndefined();
  });
});
