/**
 * Segments tile the rendered text, and every path points at the JSON value the segment came from: for content
 * segments the segment's text is that value (or, for merged messages, each original value in turn).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ChatRequestLike, type RenderResult, renderChat } from "@hopscope/shared/prompt/render";
import { QWEN25_SYSTEM } from "@hopscope/shared/prompt/qwen25";

const dir = join(import.meta.dirname, "fixtures", "requests");
const names = readdirSync(dir).map((f) => f.replace(/\.json$/, ""));
const load = (n: string): ChatRequestLike => JSON.parse(readFileSync(join(dir, `${n}.json`), "utf8"));

/** Resolves a JSON pointer in the request. */
function at(doc: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], doc);
}

function checkTiling(r: RenderResult): void {
  let pos = 0;
  for (const s of r.segments) {
    expect(s.start).toBe(pos);
    expect(s.end).toBeGreaterThan(s.start);
    pos = s.end;
  }
  expect(pos).toBe(r.text.length);
}

describe.each(["0.13.5", "0.14.0"])("segments (Ollama %s)", (version) => {
  it.each(names)("%s: tile the text and point at the request", (name) => {
    const req = load(name);
    const r = renderChat(req, { ollamaVersion: version });
    checkTiling(r);
    for (const s of r.segments) {
      const text = r.text.slice(s.start, s.end);
      if (s.kind === "special") expect(text).toMatch(/^<\|[a-z_]+\|>$/);
      if (s.kind === "message" || s.kind === "tool-result" || (s.kind === "system" && s.path !== "model SYSTEM")) {
        expect(s.path).toMatch(/^\/messages\/\d+\/content$/);
        expect(text).toBe(at(req, s.path!));
        expect(s.messageIndex).toBe(Number(s.path!.split("/")[2]));
      }
      if (s.kind === "system" && s.path === "model SYSTEM") expect(text).toBe(QWEN25_SYSTEM);
      if (s.kind === "tool") {
        // qwen2.5 prints `.Function`, so the segment points at /tools/N/function.
        expect(s.path).toBe(`/tools/${s.toolIndex}/function`);
        const fn = at(req, s.path!) as { name: string };
        expect(text).toContain(fn.name);
        expect(text.startsWith("{")).toBe(true);
      }
      if (s.kind === "tool-call") {
        // The name is printed raw; the arguments as Go JSON of the same object.
        const prefix = `/messages/${s.messageIndex}/tool_calls/${s.toolCallIndex}/function/`;
        expect([prefix + "name", prefix + "arguments"]).toContain(s.path);
        if (s.path!.endsWith("/name")) expect(text).toBe(at(req, s.path!));
        else expect(JSON.parse(text)).toEqual(at(req, s.path!));
      }
    }
  });
});

describe("segment kinds", () => {
  it("labels every part of the article's second request", () => {
    const req = load("article-turn2");
    const r = renderChat(req);
    const kinds = (k: string): string[] =>
      r.segments.filter((s) => s.kind === k).map((s) => r.text.slice(s.start, s.end));
    expect(kinds("system")).toEqual([QWEN25_SYSTEM]);
    expect(kinds("tool")).toHaveLength(5);
    expect(kinds("message")).toEqual(["Add buy milk to my notes"]);
    expect(kinds("tool-call")).toEqual(["append", '{"content":"buy milk"}']);
    expect(kinds("tool-result")).toEqual(["Success"]);
    expect(new Set(kinds("special"))).toEqual(new Set(["<|im_start|>", "<|im_end|>"]));
    expect(r.segments.filter((s) => s.kind === "tool-call").map((s) => s.path)).toEqual([
      "/messages/1/tool_calls/0/function/name",
      "/messages/1/tool_calls/0/function/arguments",
    ]);
    const result = r.segments.find((s) => s.kind === "tool-result")!;
    expect(result).toMatchObject({ role: "tool", messageIndex: 2, path: "/messages/2/content" });
  });

  it("splits merged messages back into their originals, with the joining blank line as template text", () => {
    const req = load("consecutive-and-content-with-calls");
    const r = renderChat(req);
    const i = r.segments.findIndex((s) => s.path === "/messages/0/content");
    expect(r.segments.slice(i, i + 3).map((s) => [s.kind, r.text.slice(s.start, s.end)])).toEqual([
      ["message", "Add buy milk"],
      ["template", "\n\n"],
      ["message", "and bread"],
    ]);
    expect(r.segments[i + 2]).toMatchObject({ role: "user", messageIndex: 1 });
  });

  it("keeps several system messages apart inside the header", () => {
    const r = renderChat(load("several-system-messages"));
    const sys = r.segments.filter((s) => s.kind === "system");
    expect(sys.map((s) => s.path)).toEqual(["/messages/0/content", "/messages/4/content"]);
  });
});

describe("tool segments for a template that prints whole tools", () => {
  it("point at /tools/N when llama3.1 prints {{ . }}", () => {
    const template = readFileSync(join(import.meta.dirname, "fixtures", "templates", "llama3.1.gotmpl"), "utf8");
    const req = load("article-turn1");
    const r = renderChat(req, { template, system: "" });
    checkTiling(r);
    expect(r.segments.filter((s) => s.kind === "tool").map((s) => s.path)).toEqual([
      "/tools/0",
      "/tools/1",
      "/tools/2",
      "/tools/3",
      "/tools/4",
    ]);
  });
});
