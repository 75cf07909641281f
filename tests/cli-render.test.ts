/**
 * `npm run -s hopscope -- render`, run as a user runs it: a child process with the request on stdin.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function render(args: string[], stdin: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "scripts/hopscope.ts", "render", ...args], { cwd: ROOT, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** The article's first request: one user message and the notes server's `append` tool. */
const ARTICLE_REQUEST = {
  model: "qwen2.5:7b",
  messages: [{ role: "user", content: "Add buy milk to my notes" }],
  tools: [
    {
      type: "function",
      function: {
        name: "append",
        description: "Append content to the end of the file",
        parameters: {
          type: "object",
          required: ["content"],
          properties: { content: { type: "string", description: "Text to append" } },
        },
      },
    },
  ],
  stream: false,
};

// Each case is a child process (about 2 s of tsx start-up), so they run concurrently.
describe.concurrent("hopscope render", () => {
  it("prints the rendered prompt exactly, with no newline added, and the token count on stderr", async ({ expect }) => {
    const { code, stdout, stderr } = await render(["--tokens"], JSON.stringify(ARTICLE_REQUEST));
    expect(stderr).toMatch(/^\d+ tokens \(Qwen2\.5.* — Ollama 0\.32\.15, family Ollama 0\.20\+ \(today's\)\n$/);
    expect(code).toBe(0);
    expect(stdout.startsWith("<|im_start|>system\nYou are Qwen, created by Alibaba Cloud.")).toBe(true);
    // Today's Ollama by default: each tool is a Go struct dump.
    expect(stdout).toContain(
      '{"type": "function", "function": {append Append content to the end of the file {object <nil> <nil> [content] {',
    );
    expect(stdout.endsWith("<|im_start|>user\nAdd buy milk to my notes<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
  });

  it("prints text, segments and token count with --json, for the version asked", async ({ expect }) => {
    const { code, stdout } = await render(
      ["--json", "--tokens", "--ollama-version", "0.14.0"],
      JSON.stringify(ARTICLE_REQUEST),
    );
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ ollamaVersion: "0.14.0", family: "0.14", toolFormat: "struct-dump" });
    expect(typeof out.text).toBe("string");
    expect(out.text).toContain("{append Append content to the end of the file");
    expect(Array.isArray(out.segments) && out.segments.length > 0).toBe(true);
    expect(out.tokenCount).toBeGreaterThan(50);
  });

  it("maps any version to its family: 0.13.5 and earlier print JSON tools", async ({ expect }) => {
    const { code, stdout } = await render(["--json", "--ollama-version", "v0.9.6"], JSON.stringify(ARTICLE_REQUEST));
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { text: string; family: string; toolFormat: string };
    expect(out).toMatchObject({ family: "0.13", toolFormat: "json" });
    expect(out.text).toContain('{"type": "function", "function": {"name":"append",');
  });

  it("counts tokens as that version's llama.cpp does: </s> is one token from 0.30, three before", async ({
    expect,
  }) => {
    const req = { ...ARTICLE_REQUEST, messages: [{ role: "user", content: "Strike <s>this</s> out" }] };
    const [before, after] = await Promise.all(
      ["0.24.0", "0.30.0"].map(
        async (v) =>
          JSON.parse((await render(["--json", "--tokens", "--ollama-version", v], JSON.stringify(req))).stdout) as {
            text: string;
            tokenCount: number;
          },
      ),
    );
    expect(before!.text).toBe(after!.text);
    expect(before!.tokenCount - after!.tokenCount).toBe(2);
  });

  it("names the field and what was expected when the body is wrong", async ({ expect }) => {
    const bad = {
      model: "qwen2.5:7b",
      messages: [
        { role: "user", content: 42 },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ function: { name: "append", arguments: '{"content": "x"}' } }],
        },
      ],
    };
    const { code, stdout, stderr } = await render([], JSON.stringify(bad));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("not a valid /api/chat request");
    expect(stderr).toMatch(/messages\[0\]\.content: .*expected string/);
    expect(stderr).toMatch(
      /messages\[1\]\.tool_calls\[0\]\.function\.arguments: .*expected a JSON object, received string/,
    );
  });

  it("says what is missing when the model is absent", async ({ expect }) => {
    const { code, stderr } = await render([], JSON.stringify({ messages: [] }));
    expect(code).toBe(2);
    expect(stderr).toMatch(/model: /);
  });

  it("rejects input that is not JSON", async ({ expect }) => {
    const { code, stderr } = await render([], "{ not json");
    expect(code).toBe(2);
    expect(stderr).toMatch(/^hopscope render: stdin is not valid JSON: /);
  });

  it("rejects a malformed version and unknown options", async ({ expect }) => {
    const version = await render(["--ollama-version", "latest"], JSON.stringify(ARTICLE_REQUEST));
    expect(version.code).toBe(2);
    expect(version.stderr).toContain(
      '--ollama-version expects a version such as 0.32.15, 0.14.0 or 0.13.5 (what GET /api/version reports), got "latest"',
    );
    const unknown = await render(["--yaml"], JSON.stringify(ARTICLE_REQUEST));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown option "--yaml"');
  });
});
