/**
 * The notes file on screen, in Debian's Chromium against the real stack: the write-instead-of-append
 * lesson (the notes file starts with "call the dentist") shows the destroyed note in the file lane, on
 * the tools/call that destroyed it; the presenter's reset empties the file and adds no hop to any trace.
 */
import { writeFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import type { RecorderStack } from "../support/recorder-stack";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";

describe("the notes file lane", () => {
  const suite = browserSuite({
    stack: {
      lesson: "write-instead-of-append",
      notes: "call the dentist\nwater the plants\n",
    },
    colorScheme: "light",
  });
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = suite);
  });

  it("write instead of append: the deleted notes are called out on the tools/call that deleted them", async () => {
    const { page } = browser;
    await page.goto(stack.uiUrl);
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await stack.ask("Add buy milk to my notes");
    await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 30_000 });
    expect(await stack.readNotes()).toBe("buy milk"); // write replaces the whole file
    const mark = page.getByTestId("notes-mark");
    await expect.poll(() => mark.count()).toBe(1);
    expect(await mark.getAttribute("data-destructive")).toBe("true");
    expect(await mark.getAttribute("data-cause")).toBe("tool-call");
    expect(await mark.textContent()).toBe("2 notes deleted");
    expect(await mark.getAttribute("title")).toContain("2 notes deleted, 1 added");
    // The mark sits on hop 5's row (tools/call write) and opens it.
    await mark.click();
    await page.locator('[data-hop="5"][data-selected="true"]').waitFor();
    const panel = page.getByTestId("hop-detail").getByTestId("notes-change");
    await expect.poll(() => panel.textContent()).toContain("2 notes deleted, 1 added");
    const lines = await panel
      .locator("[data-op]")
      .evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.op}:${e.textContent?.slice(1)}`));
    expect(lines).toEqual(["del:call the dentist", "del:water the plants", "add:buy milk"]);
    expect(await panel.textContent()).toContain("by tools/call write");
    expect(await page.getByTestId("notes-lane-name").textContent()).toBe("…/data/db");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("45-notes-lane-write-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    await browser.screenshot("46-notes-lane-write-1280");
    await page.keyboard.press("t");
    await browser.screenshot("46b-notes-lane-write-dark-1280");
    await page.keyboard.press("t");
    await page.keyboard.press("p");
    await page.getByTestId("presenter").getByTestId("notes-change").waitFor();
    await browser.screenshot("47-notes-lane-presenter-1280");
    await page.keyboard.press("Escape");
  });

  it("reset from the UI empties the file and adds no hop to any trace", async () => {
    const { page } = browser;
    const listBefore = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces")));
    const hopsBefore = await page.locator("[data-hop]").count();
    await page.selectOption("#notes-reset-set", "empty");
    await page.getByTestId("notes-reset").click();
    await page.getByText("Notes reset to “empty”").waitFor();
    expect(await stack.readNotes()).toBe("");
    await new Promise((r) => setTimeout(r, 300)); // a stray hop would have been announced by now
    expect(await page.locator("[data-hop]").count()).toBe(hopsBefore);
    const listAfter = TraceListSchema.parse(JSON.parse(await stack.api("/api/traces")));
    expect(listAfter.traces.map((t) => [t.id, t.exchangeCount])).toEqual(
      listBefore.traces.map((t) => [t.id, t.exchangeCount]),
    );
    // A named starting set, the lesson's own: the file holds it, still without a hop.
    await page.selectOption("#notes-reset-set", "dentist");
    await page.getByTestId("notes-reset").click();
    await page.getByText("Notes reset to “dentist”").waitFor();
    expect(await stack.readNotes()).toBe("call the dentist\n");
    await expect
      .poll(() => page.getByTestId("notes-lane-name").getAttribute("title"))
      .toContain("Now: 1 note — call the dentist.");
    expect(TraceListSchema.parse(JSON.parse(await stack.api("/api/traces"))).traces).toHaveLength(
      listBefore.traces.length,
    );
    expect(browser.pageErrors).toEqual([]);
  });

  it("an edit by hand between runs is shown as a change with no tool call running", async () => {
    const { page } = browser;
    await writeFile(stack.notesFile, "call the dentist\nfeed the cat\n");
    const notice = page.getByTestId("notes-outside");
    await expect
      .poll(() => notice.textContent().catch(() => ""), { timeout: 10_000 })
      .toContain("changed with no tool call running: 1 note added");
    await browser.screenshot("48-notes-edited-by-hand-1280");
  });
});
