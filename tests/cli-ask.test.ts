/**
 * `npm run -s hopscope -- ask` against the real stack on port 0 (notes MCP server, stand-in model, agent host):
 * the reply, the tool calls and the conversation printed; the exit codes; the fallback between host URLs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentResponseSchema } from "@hopscope/shared/agent/schemas";
import { askAgent, run as runAsk } from "../scripts/cli/ask";
import { closedPortUrl } from "./support/closed-port";
import { startStack, type Stack } from "./support/stack";

describe("npm run -s hopscope -- ask", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ record: false });
  });
  afterAll(() => stack?.close());

  function capture(env: Record<string, string | undefined>) {
    const out = { stdout: "", stderr: "" };
    return {
      out,
      io: {
        stdout: { write: (s: string) => (out.stdout += s) },
        stderr: { write: (s: string) => (out.stderr += s) },
        env,
      },
    };
  }

  it("prints the reply, each tool call and the conversation, then continues it", async () => {
    const { out, io } = capture({ HOPSCOPE_AGENT_URL: stack.hostUrl });
    expect(await runAsk(["Add buy milk to my notes"], io)).toBe(0);
    expect(out.stdout).toContain('I\'ve added "buy milk"');
    expect(out.stdout).toMatch(/tool calls \(1\):\n {2}1\. append \{"content":"buy milk"\} → "Success"/);
    const id = /conversation ([0-9a-f-]{36})/.exec(out.stdout)![1]!;

    const next = capture({ HOPSCOPE_AGENT_URL: stack.hostUrl });
    expect(await runAsk(["--json", "--conversation", id, "What's in my notes?"], next.io)).toBe(0);
    const json = AgentResponseSchema.parse(JSON.parse(next.out.stdout));
    expect(json.conversationId).toBe(id);
    expect(json.toolCalls.map((c) => c.name)).toEqual(["read"]);
  });

  it("exits 1 with the host's error message", async () => {
    const { out, io } = capture({ HOPSCOPE_AGENT_URL: stack.hostUrl });
    expect(await runAsk(["--conversation", "nope", "hello"], io)).toBe(1);
    expect(out.stderr).toMatch(/HTTP 404: conversationId "nope" is unknown/);
  });

  it("exits 2 without a question, and 1 naming the URL when nothing answers", async () => {
    const usage = capture({});
    expect(await runAsk([], usage.io)).toBe(2);
    expect(usage.out.stderr).toContain("usage:");
    const down = await closedPortUrl();
    const none = capture({ HOPSCOPE_AGENT_URL: down });
    expect(await runAsk(["hi"], none.io)).toBe(1);
    expect(none.out.stderr).toContain(`no agent host answered at ${down}`);
  });

  it("falls back to the next URL only when the first refuses the connection", async () => {
    const down = await closedPortUrl();
    const answer = await askAgent([down, stack.hostUrl], { message: "What's in my notes?" });
    expect(answer).toMatchObject({ kind: "answered", url: stack.hostUrl, status: 200 });
  });
});
