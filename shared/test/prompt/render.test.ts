/**
 * renderChat notes and edge cases, renderGenerate, the legacy (no .Messages) template path, and the qwen2.5
 * data layers checked against the registry digests.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { renderChat, renderGenerate } from "@hopscope/shared/prompt/render";
import {
  QWEN25_SYSTEM,
  QWEN25_SYSTEM_DIGEST,
  QWEN25_TEMPLATE,
  QWEN25_TEMPLATE_DIGEST,
} from "@hopscope/shared/prompt/qwen25";

const sha = (s: string): string => "sha256:" + createHash("sha256").update(s, "utf8").digest("hex");
const user = { role: "user", content: "Add buy milk to my notes" };

describe("qwen2.5 layers", () => {
  it("are the registry's bytes", () => {
    expect(new TextEncoder().encode(QWEN25_TEMPLATE).length).toBe(1482);
    expect(sha(QWEN25_TEMPLATE)).toBe(QWEN25_TEMPLATE_DIGEST);
    expect(new TextEncoder().encode(QWEN25_SYSTEM).length).toBe(68);
    expect(sha(QWEN25_SYSTEM)).toBe(QWEN25_SYSTEM_DIGEST);
  });
});

describe("renderChat notes", () => {
  it("explains what a learner would not guess", () => {
    const r = renderChat(
      {
        model: "m",
        messages: [
          user,
          {
            role: "assistant",
            content: "On it.",
            tool_calls: [{ function: { name: "append", arguments: { content: "x" } } }],
          },
          { role: "tool", content: "ok", tool_name: "append" },
        ],
        tools: [
          {
            type: "function",
            function: {
              name: "append",
              parameters: {
                type: "object",
                properties: { content: { type: "string", minLength: 1 } },
                additionalProperties: false,
              },
            },
          },
        ],
      },
      { ollamaVersion: "0.13.5" },
    );
    const all = r.notes.join("\n");
    expect(all).toContain("model's own SYSTEM");
    expect(all).toContain("assistant content is present");
    expect(all).toContain("/tools/0/function/parameters/additionalProperties");
    expect(all).toContain("/tools/0/function/parameters/properties/content/minLength");
    expect(all).toContain("tool_name/tool_call_id are not shown");
    expect(all).toContain("From 0.14 it prints a Go struct dump");
    expect(r.text).not.toContain('<tool_call>\n{"name": "append"');
  });
  it("points at ollama/ollama#14601 for the struct dump", () => {
    const r = renderChat(
      { model: "m", messages: [user], tools: [{ type: "function", function: { name: "read" } }] },
      { ollamaVersion: "0.14.0-rc0" },
    );
    expect(r.toolFormat).toBe("struct-dump");
    expect(r.notes.join("\n")).toMatch(/struct dump instead of JSON.*#14601/);
  });
  it("warns when the prompt may be truncated, and about control tokens inside content", () => {
    const r = renderChat({
      model: "m",
      messages: [{ role: "user", content: "x".repeat(400) + "<|im_end|>" }],
      options: { num_ctx: 64 },
    });
    const all = r.notes.join("\n");
    expect(all).toContain("num_ctx 64");
    expect(all).toContain("Message 0 contains text like <|im_end|>");
    const seg = r.segments.find((s) => s.kind === "message")!;
    expect(r.text.slice(seg.start, seg.end).endsWith("<|im_end|>")).toBe(true);
  });
  it("notes HTML escaping in tool JSON", () => {
    const r = renderChat(
      {
        model: "m",
        messages: [user],
        tools: [{ type: "function", function: { name: "a", description: "x < y & z" } }],
      },
      { ollamaVersion: "0.13.5" },
    );
    expect(r.text).toContain('"description":"x \\u003c y \\u0026 z"');
    expect(r.notes.join("\n")).toContain("escaped < > & (and U+2028/U+2029) as \\u003c \\u003e \\u0026 in tool 0");
  });
  it("renders a missing parameters.type as Go decodes it, whether the body was parsed by the shared schema or not", async () => {
    const { ChatRequestSchema } = await import("@hopscope/shared/ollama/schemas");
    const body = {
      model: "m",
      messages: [user],
      tools: [{ type: "function", function: { name: "read", parameters: { properties: {} } } }],
    };
    const v = { ollamaVersion: "0.13.5" };
    expect(renderChat(body, v).text).toContain('{"name":"read","parameters":{"type":"","properties":{}}}');
    expect(renderChat(ChatRequestSchema.parse(body), v).text).toContain(
      '{"name":"read","parameters":{"type":"","properties":{}}}',
    );
    // Today's struct dump prints the empty type as nothing between the braces.
    expect(renderChat(body).text).toContain("{read  { <nil> <nil> [] {}}}");
  });
  it("renders nothing for an empty message list, and says why", () => {
    const r = renderChat({ model: "m", messages: [] });
    expect(r.text).toBe("");
    expect(r.segments).toEqual([]);
    expect(r.notes.join("\n")).toContain("no messages");
  });
  it("keeps an empty first system message (no default) and lowercases roles", () => {
    const r = renderChat({
      model: "m",
      messages: [
        { role: "System", content: "" },
        { role: "USER", content: "hi" },
      ],
    });
    expect(r.text).toBe("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
  });
});

describe("renderGenerate", () => {
  it("wraps the prompt with the model SYSTEM by default", () => {
    const r = renderGenerate({ model: "m", prompt: "hi" });
    expect(r.text).toBe(
      `<|im_start|>system\n${QWEN25_SYSTEM}<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n`,
    );
    expect(r.segments.find((s) => s.kind === "message")).toMatchObject({ path: "/prompt", role: "user" });
    expect(r.segments.find((s) => s.kind === "system")).toMatchObject({ path: "model SYSTEM" });
  });
  it("uses the request's system", () => {
    const r = renderGenerate({ model: "m", prompt: "hi", system: "Be brief." });
    expect(r.text).toBe(
      "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
    );
    expect(r.segments.find((s) => s.kind === "system")).toMatchObject({ path: "/system" });
  });
  it("returns a raw prompt as is", () => {
    const prompt = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n";
    const r = renderGenerate({ model: "m", prompt, raw: true });
    expect(r.text).toBe(prompt);
    expect(r.segments).toEqual([{ start: 0, end: prompt.length, kind: "message", role: "user", path: "/prompt" }]);
  });
  it("runs a prompt/suffix template with Prompt and Suffix", () => {
    const r = renderGenerate({
      model: "m",
      prompt: "def f(",
      suffix: "    return x",
      template: "<PRE> {{ .Prompt }} <SUF>{{ .Suffix }} <MID>",
    });
    expect(r.text).toBe("<PRE> def f( <SUF>    return x <MID>");
  });
});

describe("templates without .Messages (Ollama's legacy loop)", () => {
  const legacy = "{{ if .System }}S:{{ .System }}\n{{ end }}U:{{ .Prompt }}\nA:";
  it("executes once per exchange and cuts the last one after .Response", () => {
    const r = renderChat(
      {
        model: "m",
        messages: [
          { role: "user", content: "a" },
          { role: "assistant", content: "b" },
          { role: "user", content: "c" },
        ],
      },
      { template: legacy, system: "sys" },
    );
    expect(r.text).toBe("S:sys\nU:a\nA:bU:c\nA:");
    expect(r.notes.join("\n")).toContain("legacy");
  });
});

describe("Ollama's template functions", () => {
  const tools = [
    {
      type: "function",
      function: {
        name: "f",
        parameters: {
          type: "object",
          properties: {
            n: { type: "integer" },
            s: { type: ["string", "null"] },
            o: { anyOf: [{ type: "array" }, { type: "object" }] },
            x: {},
          },
        },
      },
    },
  ];
  const tmpl =
    "{{ currentDate }}|{{ yesterdayDate }}|{{ range .Tools }}{{ range $k, $v := .Function.Parameters.Properties }}{{ $k }}: {{ toTypeScriptType $v }}; {{ end }}{{ end }}{{ range .Messages }}{{ .Content }}{{ end }}";
  it.each(["0.13.5", "0.14.0"])("toTypeScriptType, currentDate and yesterdayDate (%s)", (v) => {
    const r = renderChat(
      { model: "m", messages: [user], tools },
      { template: tmpl, system: "", ollamaVersion: v, now: new Date(2026, 2, 1, 12) },
    );
    expect(r.text).toBe(
      "2026-03-01|2026-02-28|n: number; o: any[] | Record<string, any>; s: string | null; x: any; Add buy milk to my notes",
    );
  });
});
