/**
 * A coding agent's run, shaped as opencode sends it, in Debian's Chromium against the real stack (the
 * stand-in model, the notes MCP server, the recorder's taps): a probe, an MCP session over HTTP (with the
 * -32601 its prompts/list probe gets), a wrapped stdio server stopped by SIGTERM at the end, and the model
 * turns with their session id — one trace, named by the question, found by searching "buy milk", with nothing
 * painted red. Screenshots at 1920×1080 and 1280×720.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RecorderStack } from "../support/recorder-stack";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";

const QUESTION = "Add buy milk to my notes";
const AGENT = { "user-agent": "opencode/1.18.33 ai-sdk/provider-utils/3.0.0", "x-session-id": "ses_browser_1" };
const TOOLS = [
  {
    type: "function",
    function: {
      name: "append",
      description: "Append a line to the notes",
      parameters: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
    },
  },
];

const frame = (message: unknown) => {
  const data = typeof message === "string" ? message : JSON.stringify(message);
  return { encoding: "utf8" as const, data, size: Buffer.byteLength(data) };
};

describe("an agent's run in the timeline", () => {
  const suite = browserSuite({ colorScheme: "light" });
  let stack: RecorderStack;
  let browser: Browser;
  let mcp: Client | undefined;

  beforeAll(() => {
    ({ stack, browser } = suite);
    suite.closeLater(() => mcp?.close());
  });

  async function chat(messages: unknown[]): Promise<{ message: { content: string; tool_calls?: unknown[] } }> {
    const res = await fetch(`${stack.tapUrls.model}/api/chat`, {
      method: "POST",
      headers: { ...AGENT, "content-type": "application/json" },
      body: JSON.stringify({
        model: "qwen2.5:7b",
        stream: false,
        tools: TOOLS,
        messages: [
          { role: "system", content: "You are opencode." },
          {
            role: "user",
            content: `<system-reminder>\nThe working directory is /tmp/notes.\n</system-reminder>`,
          },
          ...messages,
        ],
      }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { message: { content: string; tool_calls?: unknown[] } };
  }

  async function stdio(events: unknown[]): Promise<void> {
    const res = await fetch(`${stack.uiUrl}/api/ingest/stdio`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session: { id: "browser-stdio-01", command: "node files.js" }, events }),
    });
    expect(res.status).toBe(200);
  }

  it("is one trace named by the question, with nothing red", async () => {
    // The agent starts: it probes the model server, opens its MCP servers (HTTP and stdio) and lists what they offer.
    expect((await fetch(`${stack.tapUrls.model}/api/tags`, { headers: AGENT })).status).toBe(200);
    mcp = new Client({ name: "opencode", version: "1.18.33" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${stack.tapUrls.mcp}/mcp`)));
    await mcp.listTools();
    await expect(mcp.listPrompts()).rejects.toThrow(/-32601|not found/i);
    const t0 = Date.now();
    const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "opencode" } } };
    await stdio([
      {
        type: "answered",
        key: "stdin:0",
        stream: "stdin",
        at: t0,
        request: frame(init),
        answer: frame({ jsonrpc: "2.0", id: 0, result: { serverInfo: { name: "files" }, capabilities: {} } }),
        answerAt: t0 + 2,
      },
      { type: "line", stream: "stderr", at: t0 + 3, frame: frame("files server ready") },
    ]);
    // The turn: the model asks for the tool, the agent calls it, the model answers in words.
    const first = await chat([{ role: "user", content: QUESTION }]);
    const call = first.message.tool_calls?.[0] as { function: { name: string; arguments: Record<string, unknown> } };
    expect(call.function.name).toBe("append");
    const result = await mcp.callTool({ name: "append", arguments: call.function.arguments });
    const text = (result.content as { text: string }[])[0]!.text;
    await chat([
      { role: "user", content: QUESTION },
      { role: "assistant", content: "", tool_calls: first.message.tool_calls },
      { role: "tool", content: text, tool_name: "append" },
    ]);
    await mcp.close();
    mcp = undefined;
    // At the end the agent stops its stdio server.
    await stdio([{ type: "exit", at: Date.now(), code: null, signal: "SIGTERM" }]);
    expect(await stack.readNotes()).toContain("buy milk");

    const list = JSON.parse(await stack.api("/api/traces?limit=50")) as {
      traces: { id: string; name: string; errorCount: number; groupedBy: string }[];
    };
    expect(list.traces).toHaveLength(1);
    const run = list.traces[0]!;
    expect(run).toMatchObject({ name: QUESTION, errorCount: 0 });

    const { page } = browser;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${stack.uiUrl}/#/trace/${run.id}`);
    await page.getByTestId("trace-search").fill("buy milk");
    await expect.poll(() => page.getByTestId("trace-list").getByText(QUESTION).count()).toBe(1);
    await expect.poll(() => page.getByTestId("trace-name").textContent()).toContain(QUESTION);
    const summary = page.getByTestId("trace-summary");
    await expect.poll(() => summary.textContent()).toContain("stdio messages");
    expect(await page.getByTestId("trace-grouping").textContent()).toContain("one agent run");
    await page.locator("[data-hop]").first().waitFor();
    expect(await page.locator('[data-hop][data-outcome="error"]').count()).toBe(0);
    await browser.screenshot("80-agent-run-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    await browser.screenshot("81-agent-run-1280");
    expect(browser.pageErrors).toEqual([]);
  });
});
