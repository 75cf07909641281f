/**
 * Presenting the article's trace on a projector, against the real stack: layout facts at 1280×720 and
 * 1920×1080 (every hop on screen, no label cut, lane names apart, type large enough), each hop's payload
 * (hop 2's tools table, hop 8's calls, the prompt opened at its end, hop 6 on its diff), the token budget
 * summing to the prompt's count, zoom, and a narrated replay driven from the keyboard alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "./support/browser";
import type { RecorderStack } from "../support/recorder-stack";
import { articleTraceSuite, presenterTitle } from "./support/article-trace";

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

describe("presenting the article's trace", () => {
  const suite = articleTraceSuite();
  const { present } = suite;
  let stack: RecorderStack;
  let browser: Browser;
  let traceId = "";

  beforeAll(() => {
    ({ stack, browser, traceId } = suite);
  });

  /** Labels whose text does not fit their box (cut by an ellipsis or a line clamp). */
  function cutLabels(): Promise<string[]> {
    return browser.page
      .locator("[data-label]")
      .evaluateAll((els) =>
        els
          .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
          .map((e) => e.textContent ?? ""),
      );
  }

  it("at 1280×720 shows all eight hops with no label cut and the lane names apart", async () => {
    const { page } = browser;
    await present(4);
    const rows = await page
      .locator("[data-hop]")
      .evaluateAll((els) =>
        els.map((e) => ({ hop: (e as HTMLElement).dataset.hop, bottom: e.getBoundingClientRect().bottom })),
      );
    expect(rows.map((r) => r.hop)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    for (const r of rows) expect(r.bottom, `hop ${r.hop} is on screen`).toBeLessThanOrEqual(720);
    expect(await cutLabels()).toEqual([]);
    expect(await page.locator("[data-label]").allTextContents()).toContain('append({"content":"buy milk"})');
    const lanes = await page
      .locator("span[data-lane]")
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as Box));
    expect(lanes).toHaveLength(4);
    for (let i = 1; i < lanes.length; i++)
      expect(lanes[i]!.left - lanes[i - 1]!.right, "gap between lane names").toBeGreaterThan(4);
    await browser.screenshot("20-presenter-1280-hop-4");
    // The timeline (not presenting) at 1280×720: no label cut either, lane names apart.
    await page.keyboard.press("Escape");
    await page.getByTestId("hop-detail").waitFor();
    expect(await cutLabels()).toEqual([]);
    const laneBoxes = await page
      .locator("span[data-lane]")
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as Box));
    for (let i = 1; i < laneBoxes.length; i++)
      expect(laneBoxes[i]!.left - laneBoxes[i - 1]!.right, "gap between lane names").toBeGreaterThan(4);
  });

  it("hop 2 shows the five tools as a table, in both modes", async () => {
    const { page } = browser;
    await present(2);
    const table = page.getByTestId("presenter-focus").getByTestId("tools-table");
    await table.waitFor();
    expect(
      await table.locator("tbody tr").evaluateAll((trs) => trs.map((t) => (t as HTMLElement).dataset.tool)),
    ).toEqual(["read", "write", "append", "update", "clear"]);
    expect(await table.locator('tr[data-tool="append"]').textContent()).toMatch(/content: string\s*required/);
    await browser.screenshot("21-presenter-1280-hop-2-tools");
    await page.keyboard.press("Escape");
    await page.getByTestId("hop-detail").getByTestId("tools-table").waitFor();
    expect(await page.getByTestId("hop-detail").getByTestId("tools-table").locator("tbody tr").count()).toBe(5);
  });

  it("the model request opens with the user's turn and the waiting assistant tag in view, and its budget sums to the count", async () => {
    const { page } = browser;
    await present(3);
    const prompt = page.getByTestId("rendered-prompt");
    await prompt.waitFor();
    await page.getByTestId("token-budget").waitFor({ timeout: 20_000 });
    const visible = await prompt.evaluate((pre) => {
      const specials = [...pre.querySelectorAll('[data-kind="special"]')];
      const lastStart = specials.filter((s) => s.textContent === "<|im_start|>").at(-1)!;
      const box = pre.parentElement!.getBoundingClientRect();
      const r = lastStart.getBoundingClientRect();
      const next = lastStart.nextElementSibling?.textContent ?? "";
      return { inBox: r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.bottom <= innerHeight, next };
    });
    expect(visible).toEqual({ inBox: true, next: "assistant\n" });
    expect(await page.getByTestId("presenter-focus").textContent()).toContain("tokens, as the model server counted");
    expect(await page.getByTestId("tools-cost").textContent()).toMatch(/Your five tools cost \d+ tokens on every call/);
    await browser.screenshot("22-presenter-1280-hop-3-prompt-end");

    // The budget tab: parts listed, their sum the prompt's token count, equal to the server's prompt_eval_count here.
    await page.keyboard.press("Escape");
    await page.getByRole("tab", { name: "Token budget" }).click();
    const budget = page.getByTestId("hop-detail").getByTestId("token-budget");
    await budget.waitFor();
    const sum = Number(await budget.getAttribute("data-sum"));
    const total = Number(await budget.getAttribute("data-total"));
    const rows = await budget.locator("tbody tr td:nth-child(2)").allTextContents();
    expect(rows.length).toBe(9);
    expect(await budget.textContent()).toContain("Tool: append");
    expect(rows.reduce((n, t) => n + Number(t.replace(/\D/g, "")), 0)).toBe(sum);
    expect(sum).toBe(total);
    await browser.screenshot("23-token-budget");
    await page.getByRole("tab", { name: "What the model saw" }).click();
    expect(Number(await page.getByTestId("token-count").getAttribute("data-count"))).toBe(total);
    // Not presenting, too: the prompt opens with the waiting assistant tag on screen.
    const tag = page
      .getByTestId("hop-detail")
      .getByTestId("rendered-prompt")
      .locator('[data-kind="special"]', { hasText: "<|im_start|>" })
      .last();
    await expect
      .poll(() =>
        tag.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const pre = el.closest("pre")!.getBoundingClientRect();
          return r.top >= pre.top - 1 && r.bottom <= pre.bottom + 1 && r.top >= 0 && r.bottom <= innerHeight;
        }),
      )
      .toBe(true);
  });

  it("hop 6 opens on what is new; a tab chosen on one hop does not stick to the next", async () => {
    const { page } = browser;
    await page.goto(`${stack.uiUrl}/#/trace/${traceId}/hop/6`);
    await page.getByTestId("diff").waitFor();
    expect(await page.locator('[role="tab"][aria-selected="true"]').getAttribute("data-tab")).toBe("diff");
    await page.locator("body").click({ position: { x: 5, y: 700 } });
    await page.keyboard.press("1"); // Wire
    expect(await page.locator('[role="tab"][aria-selected="true"]').getAttribute("data-tab")).toBe("wire");
    await page.keyboard.press("k");
    await page.keyboard.press("k");
    await page.keyboard.press("k"); // hop 3
    await expect.poll(() => page.locator('[role="tab"][aria-selected="true"]').getAttribute("data-tab")).toBe("saw");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j"); // hop 8
    await page.getByTestId("hop-detail").getByText("The host replied").waitFor();
    expect(await page.getByTestId("hop-detail").locator("ol li").allTextContents()).toEqual([
      expect.stringContaining('append({"content":"buy milk"})'),
    ]);
  });

  it("numbers add up: hop 4's generated tokens match eval_count (the ending token explained); hops and exchanges explained", async () => {
    const { page } = browser;
    await page.goto(`${stack.uiUrl}/#/trace/${traceId}/hop/4`);
    const generated = page.getByTestId("generated-count");
    await generated.waitFor();
    const text = (await generated.textContent()) ?? "";
    const list = (await (await fetch(`${stack.uiUrl}/api/traces/${traceId}`)).json()) as {
      exchanges: { classification: { kind: string; evalCount?: number } }[];
    };
    const evalCount = list.exchanges.filter((x) => x.classification.kind === "model.chat")[0]!.classification
      .evalCount!;
    expect(text).toContain(`${evalCount} tokens generated, as the model server counted`);
    expect(text).toContain("<|im_end|>");
    await page.getByTestId("vocabulary").locator("summary").click();
    expect(await page.getByTestId("vocabulary").textContent()).toContain(
      "An HTTP exchange is one request with its response",
    );
    // One duration per exchange: hop 3 (the request side of hop 4's exchange) draws no second duration.
    expect(await page.locator('[data-hop="3"]').textContent()).not.toMatch(/\d+ ms\b/);
    expect(await page.locator('[data-hop="4"]').textContent()).toMatch(/\d+ ms\b/);
  });

  it("hop 8 in presenter mode lists the tool calls the host made", async () => {
    const { page } = browser;
    await present(8);
    const reply = page.getByTestId("presenter-reply");
    await reply.getByText("The host replied").waitFor();
    expect(await reply.locator("ol li").count()).toBe(1);
    expect(await reply.locator("ol li").textContent()).toContain("append");
  });

  /** The presenter header's question, as drawn: its text, how many lines it takes, whether it is clamped; and whether the header fits. */

  const question = "Add buy milk to my notes";
  const sizes = [
    [1280, 720],
    [1920, 1080],
  ] as const;

  it("the question in the header is whole, on one line, at 1280×720 and 1920×1080, dark and light, replaying or not", async () => {
    const { page } = browser;
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await present(3);
        // Opened by hand: following live is paused, the header at its fullest ("Paused", Follow live).
        await page.locator('[data-testid="presenter"] [data-testid="follow-live"][data-on="false"]').waitFor();
        const t = await presenterTitle(page);
        expect(t, `${width}×${height} ${scheme}`).toEqual({
          text: question,
          title: question,
          lines: 1,
          clamped: false,
          outside: [],
          lastHopBottom: t.lastHopBottom,
        });
        expect(t.lastHopBottom).toBeLessThanOrEqual(height);
        // Narrating adds the replay's state to the header: the question keeps its room.
        await page.keyboard.press("r");
        await page.getByTestId("replay-status").waitFor();
        expect((await presenterTitle(page)).clamped, `${width}×${height} ${scheme}, replaying`).toBe(false);
        expect((await presenterTitle(page)).outside).toEqual([]);
        await browser.screenshot(`29-presenter-title-${scheme}-${width}`);
        await page.keyboard.press("Escape"); // leave presenter mode,
        await page.keyboard.press("Escape"); // then the replay
        await expect.poll(() => page.getByTestId("replay-status").count()).toBe(0);
      }
    }
  });

  it("a very long question is clamped after two lines, whole in its tooltip, nothing pushed off screen", async () => {
    const { page } = browser;
    await page.emulateMedia({ colorScheme: "light" });
    // A question of 190 characters: two lines, then an ellipsis.
    const long = `${question}, then call the dentist, pick up the dry cleaning and book the train for the workshop next Tuesday, and read every note back to me so I can check that nothing was lost`;
    const rename = (name: string) =>
      fetch(`${stack.uiUrl}/api/traces/${traceId}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
    expect((await rename(long)).status).toBe(200);
    for (const [width, height] of sizes) {
      await page.setViewportSize({ width, height });
      await present(3);
      await expect.poll(async () => (await presenterTitle(page)).text).toBe(long);
      const t = await presenterTitle(page);
      expect(t, `${width}×${height}`).toEqual({
        text: long,
        title: long,
        lines: 2,
        clamped: true,
        outside: [],
        lastHopBottom: t.lastHopBottom,
      });
      expect(t.lastHopBottom).toBeLessThanOrEqual(height);
      await browser.screenshot(`29-presenter-title-long-light-${width}`);
    }
    expect((await rename(question)).status).toBe(200);
  });

  it("zoomed in to 150 % (Ctrl +) the header wraps if it must, nothing runs off the screen, the caption ends above the footer", async () => {
    const { page } = browser;
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 720 });
    await present(3);
    for (let i = 0; i < 3; i++) await page.keyboard.press("Control+=");
    expect(await page.getByTestId("zoom").textContent()).toBe("150%");
    await expect.poll(async () => (await presenterTitle(page)).text).toBe(question);
    const zoomed = await presenterTitle(page);
    expect([zoomed.outside, zoomed.clamped, zoomed.lines <= 2]).toEqual([[], false, true]);
    // The stage below it: the caption ends above the footer (it scrolls in its box when it must), the payload keeps
    // room, and the "N more hops below" bar stays inside the diagram's pane.
    const stage = await page.getByTestId("presenter").evaluate((root) => {
      const box = (el: Element | null) => (el as HTMLElement).getBoundingClientRect();
      const bar = root.querySelector('[data-testid="hops-out-of-view"]');
      const barButtons = bar
        ? [...bar.querySelectorAll("button")].filter((b) => !b.disabled).map((b) => box(b).right)
        : [];
      return {
        captionBottom: box(root.querySelector('[data-testid="caption"]')).bottom,
        focusHeight: box(root.querySelector('[data-testid="presenter-focus"]')).height,
        footTop: box(root.querySelector("footer")).top,
        paneRight: box(
          root.querySelector('[data-testid="presenter-focus"]')?.parentElement?.previousElementSibling ?? null,
        ).right,
        barRight: bar ? box(bar).right : null,
        barButtonsRight: barButtons,
      };
    });
    expect(stage.captionBottom).toBeLessThanOrEqual(stage.footTop + 0.5);
    expect(stage.focusHeight).toBeGreaterThan(100);
    expect(stage.barRight, "this lesson overflows its pane at 150 %: the bar is shown").not.toBeNull();
    for (const right of [stage.barRight as number, ...stage.barButtonsRight])
      expect(right).toBeLessThanOrEqual(stage.paneRight + 0.5);
    await browser.screenshot("29-presenter-title-zoom-150-1280");
    await page.keyboard.press("Control+0");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it("at 1920×1080 the diagram's text is at least 24 px, and zoom scales the whole UI", async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await present(5);
    // Every piece of diagram text: lane names, hop numbers, arrow labels, sizes and durations.
    const sizes = await page
      .locator('[data-testid="sequence"] span, span[data-lane]')
      .evaluateAll((els) =>
        els
          .filter(
            (e) => e.checkVisibility() && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim()),
          )
          .map((e) => parseFloat(getComputedStyle(e).fontSize)),
      );
    expect(sizes.length).toBeGreaterThan(20);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(24);
    expect(await cutLabels()).toEqual([]);
    await browser.screenshot("24-presenter-1920-hop-5");
    const root = () => page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    const before = await root();
    await page.keyboard.press("Control+=");
    await expect.poll(root).toBeGreaterThan(before);
    expect(await page.getByTestId("zoom").textContent()).toBe("110%");
    await page.keyboard.press("Control+0");
    await expect.poll(root).toBe(before);
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it("follows buy milk along its path, docked under the sequence; a click scrolls to the match; tool wording set apart", async () => {
    const { page } = browser;
    await page.goto(`${stack.uiUrl}/#/trace/${traceId}/hop/1`);
    await page.locator('[data-hop="8"]').waitFor();
    await page.getByLabel("Follow a value across hops").fill("buy milk");
    await page.getByLabel("Follow a value across hops").press("Enter");
    const path = page.getByTestId("follow-path");
    await expect
      .poll(() => page.getByTestId("follow-panel").textContent(), { timeout: 15_000 })
      .toContain("in the order it travelled");
    await expect.poll(() => path.locator("button").count()).toBeGreaterThan(5);
    const hops = await path
      .locator("button")
      .evaluateAll((bs) => bs.map((b) => Number((b as HTMLElement).dataset.hop)));
    expect(hops[0]).toBe(1);
    expect(hops).toEqual([...hops].sort((a, b) => a - b));
    expect(new Set(hops)).toEqual(new Set([1, 3, 4, 5, 6, 7, 8]));
    // The notes file is a step: right after the MCP request that wrote the value, before its result.
    const steps = await path
      .locator("button")
      .evaluateAll((bs) => bs.map((b) => `${(b as HTMLElement).dataset.hop}:${(b as HTMLElement).dataset.side}`));
    const file = steps.indexOf("5:notes");
    expect(file, steps.join(" ")).toBeGreaterThan(0);
    expect(steps[file - 1]).toBe("5:request");
    expect(steps.slice(file + 1).every((x) => x !== "5:request")).toBe(true);
    expect(await path.locator('button[data-side="notes"]').textContent()).toContain("notes file (data/db)");
    // The append tool's example differs from the article's value: nothing in the tools' wording matches.
    expect(await page.getByTestId("follow-tool-definitions").count()).toBe(0);
    // Docked: the panel and the hop's detail do not overlap.
    const panel = await page.getByTestId("follow-panel").boundingBox();
    const detail = await page.getByTestId("hop-detail").boundingBox();
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(detail!.x + 1);
    await path.locator('button[data-hop="5"]').first().click();
    const current = page.getByTestId("hop-detail").locator("mark[data-current]");
    await current.waitFor();
    const box = await current.boundingBox();
    expect(box!.y).toBeGreaterThan(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(720);
    await browser.screenshot("26-follow-buy-milk");
    // A click on the file step opens hop 5's diff and marks it and the lane's mark.
    await path.locator('button[data-side="notes"]').click();
    await page.locator('[data-testid="hop-detail"] [data-testid="notes-change"][data-current]').waitFor();
    await page.locator('[data-testid="notes-mark"][data-current]').waitFor();
    expect(await page.getByTestId("hop-detail").getByTestId("notes-diff").textContent()).toContain("buy milk");
    await browser.screenshot("27-follow-buy-milk-notes-file");
    await page.getByLabel("Follow a value across hops").fill("whole notes file");
    await page.getByLabel("Follow a value across hops").press("Enter");
    await page.getByTestId("follow-tool-definitions").waitFor();
    expect(await path.locator("button").count()).toBe(0);
    await page.keyboard.press("Escape"); // leaves the input
    await page.keyboard.press("Escape"); // closes the panel
    expect(await page.getByTestId("follow-panel").count()).toBe(0);
  });
});
