/**
 * A page opened after a replay started (`POST /api/replay`, as `hopscope replay` sends it) follows the
 * replay as a page open from the start does: it asks the API what is running on load, opens that trace,
 * then moves with the live feed hop by hop to the end. Two cases: the article's trace (its /agent call is
 * in flight the whole time) and an MCP-only session, whose replay is mostly between two exchanges (nothing
 * in flight: only GET /api/replay tells); and the `l` key, following again, finds a replay between its
 * exchanges the same way. Real stack, Debian's Chromium, screenshots at 1280×720 and 1920×1080.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ReplaysPlayingSchema, ReplayStartedSchema } from "@hopscope/shared/trace/replay";
import { browserSuite } from "./support/suite";

const TRACES = new URL("../../traces/", import.meta.url);
const SCREENSHOTS = new URL("../../test-results/screenshots/", import.meta.url);

/** A screenshot of a second page (the suite's helper takes its own page's). */
const shot = (page: Page, name: string) =>
  page.screenshot({ path: fileURLToPath(new URL(`${name}.png`, SCREENSHOTS)) });

describe("a page opened during a replay", () => {
  const suite = browserSuite();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    for (const name of ["buy-milk", "inspector-session"]) {
      const res = await fetch(new URL("/api/import", suite.stack.uiUrl), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: await readFile(new URL(`${name}.hopscope.json`, TRACES)),
      });
      expect(res.status).toBe(200);
      ids[name] = ((await res.json()) as { id: string }).id;
    }
  });

  async function startReplay(name: string, speed: number) {
    const res = await fetch(new URL("/api/replay", suite.stack.uiUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ traceId: ids[name], speed }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    return ReplayStartedSchema.parse(await res.json());
  }

  async function playing(): Promise<string[]> {
    const res = await fetch(new URL("/api/replay", suite.stack.uiUrl));
    expect(res.status).toBe(200);
    return ReplaysPlayingSchema.parse(await res.json()).replays.map((r) => r.traceId);
  }

  /** The hops a page has selected, in order, as it moves (recorded in the page). */
  async function watchSelection(page: Page): Promise<() => Promise<number[]>> {
    await page.evaluate(() => {
      const w = window as unknown as { __selected: number[] };
      w.__selected = [];
      new MutationObserver(() => {
        const n = Number(document.querySelector('[data-hop][data-selected="true"]')?.getAttribute("data-hop") ?? 0);
        if (n && w.__selected.at(-1) !== n) w.__selected.push(n);
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ["data-selected"],
      });
    });
    return () => page.evaluate(() => (window as unknown as { __selected: number[] }).__selected);
  }

  const shownTrace = (page: Page) => new URL(page.url()).hash.match(/trace\/([0-9a-f]+)/)?.[1];

  it("the article's trace: a page opened mid-replay opens it and follows it to the end, like the page open from the start", async () => {
    const early = suite.browser.page;
    await early.setViewportSize({ width: 1280, height: 720 });
    await early.goto(suite.stack.uiUrl);
    await early.locator('[data-testid="connection"][data-state="live"]').waitFor();
    // 0.5×: about 6 s, slow enough to open a page in the middle.
    const replay = await startReplay("buy-milk", 0.5);
    await expect.poll(() => shownTrace(early), { timeout: 10_000 }).toBe(replay.traceId);
    await early.locator('[data-hop="3"]').waitFor({ timeout: 10_000 });
    expect(await playing()).toContain(replay.traceId);

    const late = await suite.browser.context.newPage();
    const errors: string[] = [];
    late.on("pageerror", (e) => errors.push(e.message));
    await late.setViewportSize({ width: 1920, height: 1080 });
    await late.goto(suite.stack.uiUrl);
    await expect.poll(() => shownTrace(late), { timeout: 10_000 }).toBe(replay.traceId);
    await late.locator("[data-hop]").first().waitFor();
    const selectedLate = await watchSelection(late);
    await expect.poll(() => late.getByTestId("follow-live").getAttribute("data-on")).toBe("true");
    // Still playing when it opened: the page moves with the feed to the last hop.
    expect(await playing()).toContain(replay.traceId);
    await suite.browser.screenshot("90-replay-join-early-page-1280");
    await shot(late, "90-replay-join-late-page-1920");
    await late.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 20_000 });
    await early.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 20_000 });
    const moves = await selectedLate();
    expect(moves.length, `the late page moved hop by hop: ${moves.join(", ")}`).toBeGreaterThanOrEqual(2);
    expect(moves).toEqual([...moves].sort((a, b) => a - b));
    // Both pages show the same trace, hop for hop.
    const rows = (page: Page) => page.locator("[data-hop]").allTextContents();
    expect(await rows(late)).toEqual(await rows(early));
    await late.setViewportSize({ width: 1280, height: 720 });
    await shot(late, "91-replay-join-late-page-end-1280");
    expect(errors).toEqual([]);
    await late.close();
  });

  it("an MCP-only session: a page opened between two replayed exchanges (nothing in flight) follows it too", async () => {
    const { page } = suite.browser;
    await page.goto("about:blank");
    // 0.04×: its five quick exchanges spread over about 8 s, with seconds between them.
    const replay = await startReplay("inspector-session", 0.04);
    const seen = async () =>
      (
        (await (await fetch(new URL(`/api/traces/${replay.traceId}`, suite.stack.uiUrl))).json()) as {
          exchanges: unknown[];
        }
      ).exchanges.length;
    await expect.poll(seen, { timeout: 10_000 }).toBeGreaterThan(0);
    const late = await suite.browser.context.newPage();
    await late.goto(suite.stack.uiUrl);
    await expect.poll(() => shownTrace(late), { timeout: 10_000 }).toBe(replay.traceId);
    expect(await playing()).toContain(replay.traceId);
    await late.locator('[data-hop="5"][data-selected="true"]').waitFor({ timeout: 20_000 });
    expect(await late.getByTestId("follow-live").getAttribute("data-on")).toBe("true");
    await shot(late, "92-replay-join-mcp-only-1280");
    await late.close();
    expect(suite.browser.pageErrors).toEqual([]);
  });

  it("following paused on another trace, the l key follows the replay playing, between its exchanges too", async () => {
    const { page } = suite.browser;
    await page.goto(`${suite.stack.uiUrl}/#/trace/${ids["buy-milk"]}/hop/2`);
    await page.locator('[data-testid="follow-live"][data-on="false"]').waitFor();
    const replay = await startReplay("inspector-session", 0.04);
    await expect.poll(async () => (await playing()).includes(replay.traceId)).toBe(true);
    // Paused: the page stays where the learner put it.
    await page.waitForTimeout(500);
    expect(shownTrace(page)).toBe(ids["buy-milk"]);
    await page.keyboard.press("l");
    await expect.poll(() => shownTrace(page), { timeout: 10_000 }).toBe(replay.traceId);
    await page.locator('[data-hop="5"][data-selected="true"]').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("follow-live").getAttribute("data-on")).toBe("true");
    expect(suite.browser.pageErrors).toEqual([]);
  });
});
