/**
 * What a learner sees of their own MCP setups, in real Chromium: a host (the SDK's stdio client) using our
 * notes server through `hopscope wrap` shows live as one trace, on an MCP lane marked stdio; an SDK server
 * that answers with SSE shows its answer event by event in the MCP tab. Screenshots at 1280×720 and 1920×1080.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { closeAll, startRecorder, type TestRecorder } from "../support/recorder";
import { startSdkSseServer } from "../support/sdk-sse-server";
import { wrappedNotesTransport } from "../support/stdio-host";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";

describe("MCP over stdio and SSE in the timeline", () => {
  const suite = browserSuite({ stack: false, colorScheme: "light" });
  let dir: string;
  let recorder: TestRecorder;
  let sse: Awaited<ReturnType<typeof startSdkSseServer>>;
  let browser: Browser;
  let host: Client;

  beforeAll(async () => {
    sse = await startSdkSseServer();
    recorder = await startRecorder({ mcp: sse.url }, { webDist: suite.ui });
    dir = recorder.dir;
    browser = suite.browser;
  });
  afterAll(async () => {
    await host?.close();
    await closeAll(recorder, sse);
  });

  it("shows a wrapped stdio session live, on the MCP lane marked stdio", async () => {
    const { page } = browser;
    await page.goto(recorder.url);
    const notesFile = path.join(dir, "notes");
    await writeFile(notesFile, "");
    host = new Client({ name: "learners-host", version: "1.0.0" });
    await host.connect(wrappedNotesTransport(notesFile, recorder.url));
    await host.listTools();
    await host.callTool({ name: "append", arguments: { content: "buy milk" } });
    // The host is still connected: the trace is live.
    await page.getByTestId("trace-list").getByText("MCP session: tools/call append", { exact: true }).click();
    await page.locator('[data-hop="4"]').waitFor();
    const badge = page.getByTestId("mcp-transport");
    expect(await badge.textContent()).toBe("stdio");
    expect(await badge.getAttribute("title")).toContain("stdio-main.ts");
    const rows = await page.locator("[data-hop]").allTextContents();
    expect(rows.join("\n")).toMatch(/tools\/call[\s\S]*append/);
    await page.locator("[data-hop]").filter({ hasText: "append" }).first().click();
    await page.locator('[data-tab="mcp"]').click();
    expect(await page.getByTestId("mcp-view").textContent()).toContain("Success");
    await browser.screenshot("mcp-stdio-1280");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("mcp-stdio-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(browser.pageErrors).toEqual([]);
  });

  it("shows an SSE answer event by event in the MCP tab", async () => {
    const { page } = browser;
    // Started right after the stdio host, this client stays in a trace of its own: it names itself otherwise
    // (docs/recorder.md, "Agent runs", MCP client).
    const client = new Client({ name: "sse-host", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${recorder.taps.mcp.url}/mcp`));
    await client.connect(transport);
    await client.callTool({ name: "slow_append", arguments: { content: "buy milk" } });
    await client.close();
    await page.getByTestId("trace-list").getByText("MCP session: tools/call slow_append", { exact: true }).click();
    await page.locator("[data-hop]").filter({ hasText: "slow_append" }).first().click();
    await page.locator('[data-tab="mcp"]').click();
    const events = page.getByTestId("mcp-sse-events");
    await events.waitFor();
    const items = events.locator("li");
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toMatch(/event 1.*notification.*notifications\/progress/s);
    expect(await items.nth(1).textContent()).toMatch(/event 2.*response.*Appended: buy milk/s);
    await events.scrollIntoViewIfNeeded();
    await browser.screenshot("mcp-sse-1280");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("mcp-sse-1920");
    expect(browser.pageErrors).toEqual([]);
  });
});
