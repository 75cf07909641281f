/**
 * The sequence view's layout facts a room sees, in Debian's Chromium, on curated traces imported into the
 * real stack: the notes file's marks ("1 note added") and the file lane's name never touch an arrow, a
 * label, a hop number or a flag — in the timeline and in presenter mode, at 1280×720 and 1920×1080; an
 * 11-hop lesson fits on stage at 1280×720; an 18-hop one says how many hops are out of view, and the
 * keyboard walks every one into view.
 */
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { browserSuite } from "./support/suite";

const TRACES = new URL("../../traces/", import.meta.url);

interface Overlap {
  what: string;
  with: string;
}

/** Every pair (mark or lane name, other drawn thing) whose boxes intersect, as seen on screen. */
function overlaps(page: Page): Promise<Overlap[]> {
  return page.evaluate(() => {
    type R = { l: number; r: number; t: number; b: number; name: string };
    const box = (e: Element, name: string): R => {
      const b = e.getBoundingClientRect();
      return { l: b.left, r: b.right, t: b.top, b: b.bottom, name };
    };
    const seq = document.querySelector('[data-testid="sequence"]') as HTMLElement;
    const view = seq.getBoundingClientRect();
    const visible = (x: R) => x.b > view.top && x.t < view.bottom && x.r > x.l && x.b > x.t;
    const others: R[] = [];
    for (const row of seq.querySelectorAll<HTMLElement>("[data-hop]")) {
      const hop = row.dataset.hop;
      row.querySelectorAll("[data-direction] > span").forEach((e) => others.push(box(e, `hop ${hop} arrow`)));
      row
        .querySelectorAll("[data-number], [data-flag]")
        .forEach((e) => others.push(box(e, `hop ${hop} ${e.textContent}`)));
      // A label's text, not its box (a label may use the free width beyond its arrow).
      row.querySelectorAll("[data-label]").forEach((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        for (const r of range.getClientRects())
          others.push({ l: r.left, r: r.right, t: r.top, b: r.bottom, name: `hop ${hop} label "${e.textContent}"` });
      });
    }
    const marks = [...seq.querySelectorAll('[data-testid="notes-mark"], [data-testid="notes-lane-name"]')].map((e) =>
      box(e, `mark "${e.textContent}"`),
    );
    const out: { what: string; with: string }[] = [];
    for (const m of marks.filter(visible)) {
      for (const o of [...others, ...marks].filter(visible)) {
        if (o === m) continue;
        if (m.l < o.r - 0.5 && o.l < m.r - 0.5 && m.t < o.b - 0.5 && o.t < m.b - 0.5)
          out.push({ what: m.name, with: o.name });
      }
    }
    return out;
  });
}

/** Least room, in px, between the file lane's name and anything drawn in the rows (arrow heads included). */
const CLEAR_PX = 4;

/**
 * How close the file lane's name comes to the rows below its strip: the first row's top edge, and every
 * arrow (with its head, which rises above its line), label text, hop number and flag in view, as boxes.
 */
function nameClearance(
  page: Page,
): Promise<{ toFirstRow: number; nearest: { gap: number; what: string }; inside: boolean }> {
  return page.evaluate(() => {
    const seq = document.querySelector('[data-testid="sequence"]') as HTMLElement;
    const name = (document.querySelector('[data-testid="notes-lane-name"]') as HTMLElement).getBoundingClientRect();
    const rows = [...seq.querySelectorAll<HTMLElement>("[data-hop]")];
    const boxes: { l: number; r: number; t: number; b: number; what: string }[] = [];
    for (const row of rows) {
      const hop = row.dataset.hop;
      row.querySelectorAll("[data-direction] > span").forEach((e) => {
        const b = e.getBoundingClientRect();
        const head = getComputedStyle(e, "::after");
        // The head is a CSS triangle on the line's end: as tall as its borders, centred on the line.
        const half = (parseFloat(head.borderTopWidth) + parseFloat(head.borderBottomWidth)) / 2;
        boxes.push({
          l: b.left - 12,
          r: b.right + 12,
          t: b.top + b.height / 2 - half,
          b: b.top + b.height / 2 + half,
          what: `hop ${hop} arrow`,
        });
      });
      row.querySelectorAll("[data-number], [data-flag]").forEach((e) => {
        const b = e.getBoundingClientRect();
        boxes.push({ l: b.left, r: b.right, t: b.top, b: b.bottom, what: `hop ${hop} ${e.textContent}` });
      });
      row.querySelectorAll("[data-label]").forEach((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        for (const r of range.getClientRects())
          boxes.push({ l: r.left, r: r.right, t: r.top, b: r.bottom, what: `hop ${hop} label "${e.textContent}"` });
      });
    }
    let nearest = { gap: Number.POSITIVE_INFINITY, what: "" };
    for (const o of boxes) {
      const gap = Math.max(o.l - name.right, name.left - o.r, o.t - name.bottom, name.top - o.b);
      if (gap < nearest.gap) nearest = { gap: Math.round(gap * 10) / 10, what: o.what };
    }
    const first = rows.find((r) => r.dataset.hop === "1")!.getBoundingClientRect();
    const view = seq.getBoundingClientRect();
    return {
      toFirstRow: Math.round((first.top - name.bottom) * 10) / 10,
      nearest,
      inside: name.left >= view.left - 0.5 && name.right <= view.right + 0.5,
    };
  });
}

/** The Inspector's session played four times over: 20 MCP-only hops, so presenter mode shrinks its rows to compact. */
async function longMcpSession(): Promise<string> {
  const bundle = JSON.parse(await readFile(new URL("inspector-session.hopscope.json", TRACES), "utf8")) as {
    trace: { name: string };
    exchanges: { id: number; seq: number; timings: Record<string, number | null> }[];
  };
  const one = bundle.exchanges;
  bundle.trace.name = "MCP Inspector: the session four times";
  bundle.exchanges = [0, 1, 2, 3].flatMap((round) =>
    one.map((x, i) => ({
      ...x,
      id: round * one.length + i + 1,
      seq: round * one.length + i + 1,
      timings: Object.fromEntries(Object.entries(x.timings).map(([k, v]) => [k, v === null ? null : v + round * 400])),
    })),
  );
  return JSON.stringify(bundle);
}

describe("the sequence view's layout", () => {
  const suite = browserSuite();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    for (const name of [
      "buy-milk",
      "write-instead-of-append",
      "missing-argument",
      "loop",
      "inspector-session",
      "stdio-session",
      "mcp-x4",
    ]) {
      const body =
        name === "mcp-x4" ? await longMcpSession() : await readFile(new URL(`${name}.hopscope.json`, TRACES));
      const res = await fetch(new URL("/api/import", suite.stack.uiUrl), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(res.status).toBe(200);
      ids[name] = ((await res.json()) as { id: string }).id;
    }
  });

  async function open(page: Page, name: string, hop: number, present: boolean): Promise<void> {
    await page.goto(`${suite.stack.uiUrl}/#/trace/${ids[name]}/hop/${hop}${present ? "/present" : ""}`);
    await page.locator(`[data-hop="${hop}"][data-selected="true"]`).waitFor();
  }

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    for (const present of [false, true]) {
      it(`notes marks touch no arrow, label, number or flag (${present ? "presenter" : "timeline"}, ${width}×${height})`, async () => {
        const { page } = suite.browser;
        await page.setViewportSize({ width, height });
        for (const name of ["buy-milk", "write-instead-of-append"]) {
          await open(page, name, 5, present);
          const mark = page.getByTestId("notes-mark");
          await expect.poll(() => mark.count()).toBe(1);
          expect(await mark.getAttribute("data-mark-hop")).toBe("5");
          expect(await overlaps(page)).toEqual([]);
          // The mark is drawn within hop 5's row, below its arrows.
          const [m, row, arrows] = await Promise.all([
            mark.boundingBox(),
            page.locator('[data-hop="5"]').boundingBox(),
            page
              .locator('[data-hop="5"] [data-direction] > span')
              .evaluateAll((els) => Math.max(...els.map((e) => e.getBoundingClientRect().bottom))),
          ]);
          expect(m!.y).toBeGreaterThan(arrows);
          expect(m!.y + m!.height).toBeLessThanOrEqual(row!.y + row!.height + 0.5);
          await suite.browser.screenshot(`80-layout-${name}-${present ? "presenter" : "timeline"}-${width}`);
        }
      });
    }
  }

  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    for (const present of [false, true]) {
      it(`on MCP-only traces the file lane's name keeps ${CLEAR_PX} px from hop 1's arrows, labels and number (${present ? "presenter" : "timeline"}, ${width}×${height})`, async () => {
        const { page } = suite.browser;
        await page.setViewportSize({ width, height });
        for (const name of ["inspector-session", "stdio-session", "mcp-x4"]) {
          await open(page, name, 1, present);
          const c = await nameClearance(page);
          expect(c.toFirstRow, `${name}: from the name to the first row`).toBeGreaterThanOrEqual(CLEAR_PX);
          expect(c.nearest.gap, `${name}: nearest is ${c.nearest.what}`).toBeGreaterThanOrEqual(CLEAR_PX);
          expect(c.inside, `${name}: the name is inside the view`).toBe(true);
          expect(await overlaps(page)).toEqual([]);
          await suite.browser.screenshot(`85-layout-lane-name-${name}-${present ? "presenter" : "timeline"}-${width}`);
        }
      });
    }
  }

  it("a replay (POST /api/replay, as hopscope replay sends it) shows the notes-file change on its replayed hop", async () => {
    const { page } = suite.browser;
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(suite.stack.uiUrl);
    await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    await page.keyboard.press("l"); // follow live: the replay opens by itself
    const res = await fetch(new URL("/api/replay", suite.stack.uiUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ traceId: ids["write-instead-of-append"], speed: 4 }),
    });
    expect(res.status).toBe(202);
    const { traceId } = (await res.json()) as { traceId: string };
    await expect.poll(() => page.evaluate(() => location.hash), { timeout: 20_000 }).toContain(traceId);
    const mark = page.getByTestId("notes-mark");
    await expect.poll(() => mark.count(), { timeout: 20_000 }).toBe(1);
    expect(await mark.getAttribute("data-mark-hop")).toBe("5");
    expect(await mark.textContent()).toBe("1 note deleted");
    await page.locator('[data-hop="8"]').waitFor({ timeout: 20_000 });
    expect(await overlaps(page)).toEqual([]);
    await suite.browser.screenshot("84-replay-notes-mark-1280");
    // Following the replay opened each hop while it played: every exchange in flight was served (no 404 logged).
    expect(suite.browser.pageErrors).toEqual([]);
  });

  it("an 11-hop lesson fits on stage at 1280×720 (one-line labels, only the tool error's long text clamped, with its text as tooltip), nothing out of view", async () => {
    const { page } = suite.browser;
    await page.setViewportSize({ width: 1280, height: 720 });
    await open(page, "missing-argument", 1, true);
    const rows = await page
      .locator("[data-hop]")
      .evaluateAll((els) =>
        els.map((e) => ({ hop: (e as HTMLElement).dataset.hop, bottom: e.getBoundingClientRect().bottom })),
      );
    expect(rows).toHaveLength(11);
    const seqBottom = (await page.getByTestId("sequence").boundingBox())!;
    for (const r of rows)
      expect(r.bottom, `hop ${r.hop} is on screen`).toBeLessThanOrEqual(seqBottom.y + seqBottom.height + 0.5);
    // Compact rows give each label one line: a long one is clamped, and its whole text is its tooltip
    // (and in the hop's detail). Only the longest text of this lesson is: the tool error's.
    const cut = await page
      .locator("[data-label]")
      .evaluateAll((els) =>
        els
          .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
          .map((e) => ({ text: e.textContent ?? "", title: e.parentElement?.getAttribute("title") ?? "" })),
      );
    for (const c of cut) expect(c.title).toBe(c.text);
    expect(cut.map((c) => c.text)).toEqual(["isError: Param (content) is required: append takes (content)."]);
    expect(await page.locator("[data-label]").allTextContents()).toContain('append({"content":"buy milk"})');
    expect(await page.getByTestId("hops-out-of-view").count()).toBe(0);
    expect(await overlaps(page)).toEqual([]);
    await suite.browser.screenshot("81-presenter-11-hops-1280");
  });

  it("an 18-hop lesson on stage says how many hops are out of view, and the keys bring each into view", async () => {
    const { page } = suite.browser;
    await page.setViewportSize({ width: 1280, height: 720 });
    // Its first hop carries an ERROR flag (the host gave up): the file lane's name above it does not touch it.
    await open(page, "loop", 1, false);
    expect(await page.locator('[data-hop="1"] [data-flag]').count()).toBe(1);
    expect(await overlaps(page)).toEqual([]);
    await open(page, "loop", 1, true);
    expect(await overlaps(page)).toEqual([]);
    const below = page.getByTestId("hops-below");
    await expect.poll(() => below.textContent()).toMatch(/^▼ \d+ more hops below$/);
    expect(await page.getByTestId("hops-above").isVisible()).toBe(false);
    await suite.browser.screenshot("82-presenter-18-hops-top-1280");
    for (let n = 2; n <= 18; n++) {
      await page.keyboard.press("ArrowRight");
      const row = page.locator(`[data-hop="${n}"][data-selected="true"]`);
      await row.waitFor();
      // The view scrolls the selected hop in on the frame after it is selected: read it once it has settled.
      const inView = async () => {
        const b = (await row.boundingBox())!;
        const seq = (await page.getByTestId("sequence").boundingBox())!;
        return b.y >= seq.y - 0.5 && b.y + b.height <= seq.y + seq.height + 0.5;
      };
      await expect.poll(inView, { message: `hop ${n} in view` }).toBe(true);
      const seq = (await page.getByTestId("sequence").boundingBox())!;
      // The diagram stays within the stage whatever the hop's payload on the right (a tall one stretched it past the screen).
      expect(seq.y + seq.height).toBeLessThanOrEqual(720 - 20);
    }
    await expect.poll(() => page.getByTestId("hops-above").textContent()).toMatch(/^▲ \d+ hops? above$/);
    expect(await below.isVisible()).toBe(false);
    await suite.browser.screenshot("83-presenter-18-hops-end-1280");
    // A click on the indicator scrolls back up.
    const before = await page.getByTestId("sequence").evaluate((e) => e.scrollTop);
    await page.getByTestId("hops-above").click();
    await expect.poll(() => page.getByTestId("sequence").evaluate((e) => e.scrollTop)).toBeLessThan(before);
    expect(suite.browser.pageErrors).toEqual([]);
  });
});
