/**
 * A learner watching a live trace, in Debian's Chromium against the real stack (MCP server, stand-in
 * model with the `slow` lesson's pace, recorder, streaming host): a question sent with curl — not from
 * the ask box — opens on screen by itself, the selected hop advances as hops arrive, the model's text
 * streams into the detail pane before the answer ends, and every caption says what is true at that
 * moment (never "no tool call" while one is written). Navigating by hand pauses following; `l` resumes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RecorderStack } from "../support/recorder-stack";
import type { Browser } from "./support/browser";
import { startModelGate, type ModelGate } from "./support/model-gate";
import { browserSuite } from "./support/suite";

const QUESTION = "Add buy milk to my notes";

/** Records in the page every (hop, caption state, caption text) and every streaming text seen. */
function watchScreen(): void {
  const w = window as unknown as {
    __seen: { hop: string; state: string; text: string; streaming: string; selected: string }[];
  };
  w.__seen = [];
  new MutationObserver(() => {
    const cap = document.querySelector('[data-testid="hop-detail"] [data-testid="caption"]') as HTMLElement | null;
    const streaming =
      document.querySelector('[data-testid="hop-detail"] [data-testid="streaming-text"]')?.textContent ?? "";
    const selected =
      (document.querySelector('[data-hop][data-selected="true"]') as HTMLElement | null)?.dataset.hop ?? "";
    const entry = {
      hop: cap?.querySelector("span")?.textContent ?? "",
      state: cap?.dataset.state ?? "",
      text: cap?.textContent ?? "",
      streaming,
      selected,
    };
    const last = w.__seen.at(-1);
    if (!last || JSON.stringify(last) !== JSON.stringify(entry)) w.__seen.push(entry);
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
}

type Seen = { hop: string; state: string; text: string; streaming: string; selected: string };

describe("following a live trace", () => {
  // The slow lesson: a visible model load on every request and a few tokens per second. Where a test looks
  // at a moment that must last (the model loading, the answer half-written), the gate holds it until then.
  let gate: ModelGate;
  const suite = browserSuite({
    stack: async () => {
      gate = await startModelGate();
      return {
        stream: true,
        lesson: "slow",
        sim: { slowLoadMs: 1500, slowTokensPerSecond: 6 },
        modelUpstream: gate.url,
      };
    },
    colorScheme: "light",
  });
  let stack: RecorderStack;
  let browser: Browser;

  beforeAll(async () => {
    ({ stack, browser } = suite);
    gate.target = stack.simUrl;
    suite.closeLater(() => gate.close());
    await browser.page.goto(stack.uiUrl);
    await browser.page.locator('[data-testid="connection"][data-state="live"]').waitFor();
  });

  it("a curl question opens by itself; the selection advances; text streams in before the answer ends; captions stay true", async () => {
    const { page } = browser;
    await page.locator('[data-testid="follow-live"][data-on="true"]').waitFor();
    await page.evaluate(watchScreen);
    let answered = 0;
    // The model keeps the first request waiting until the page has shown the wait.
    gate.holdRequests();
    // The article's hop 1, as curl sends it: straight to the agent tap, nothing from the page.
    const reply = stack.ask(QUESTION).then((r) => {
      answered = Date.now();
      return r;
    });
    await page.locator('[data-hop="1"]').waitFor({ timeout: 20_000 });
    // Waiting for the model's first byte: the caption says so, with the seconds ticking.
    const meter = page.getByTestId("hop-detail").getByTestId("caption-meter");
    await expect.poll(() => meter.textContent(), { timeout: 20_000 }).toMatch(/^waiting \d+\.\d s$/);
    const first = await meter.textContent();
    await expect.poll(() => meter.textContent(), { timeout: 5_000 }).not.toBe(first);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("40-follow-live-waiting-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    // The model's final words stream into the detail pane before the host has answered: the answer in words
    // stops part-way (once 4 characters are through), and the page must show those words before it goes on.
    gate.release();
    gate.holdAnswerAt(4);
    await expect.poll(() => gate.stoppedAnswer, { timeout: 40_000 }).not.toBe("");
    const streamingText = page.getByTestId("hop-detail").getByTestId("streaming-text");
    await expect
      .poll(async () => ((await streamingText.count()) ? await streamingText.textContent() : ""), { timeout: 20_000 })
      .toContain(gate.stoppedAnswer.trim());
    expect(answered).toBe(0);
    await browser.screenshot("41-follow-live-streaming-1280");
    gate.release();
    expect((await reply).status).toBe(200);
    await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 20_000 });

    const seen = await page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen);
    // The selected hop only moved forward, through every hop as it arrived — hop 5, the quick tools/call, too.
    const order = [...new Set(seen.map((s) => s.selected).filter(Boolean))].map(Number);
    // Only forward, through every hop but possibly 6 (the resent request): the dwell gives way to the answer as
    // soon as it streams, so the room sees it being written.
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.filter((h) => h !== 6)).toEqual([1, 2, 3, 4, 5, 7, 8]);
    // Hop 4 (the model's tool call): captioned as a tool call while it streamed, never as words.
    const hop4 = seen.filter((s) => s.hop === "4");
    expect(hop4.some((s) => s.state === "tool-call" && /tool call/.test(s.text))).toBe(true);
    expect(hop4.filter((s) => /no tool call|answers in words/i.test(s.text))).toEqual([]);
    // Hop 7 (the answer in words) showed text arriving, and tokens counted as they came.
    expect(seen.some((s) => s.hop === "7" && s.state === "text" && /tokens so far/.test(s.text))).toBe(true);
    expect(browser.pageErrors).toEqual([]);
    // Once done, the model's answer shows the model server's own timings from the final chunk.
    await page.locator('[data-hop="4"]').click();
    await expect
      .poll(() => page.getByTestId("hop-detail").getByTestId("caption-meter").textContent())
      .toMatch(/^Model server: loading the model [\d.]+ s · reading the prompt \(\d+ tokens\)/);
    await page.keyboard.press("l");
  });

  it("the live trace has the question's name before the model answers", async () => {
    const { page } = browser;
    const q = "What's in my notes?";
    gate.holdRequests();
    const reply = stack.ask(q);
    // While hop 3 waits for the model (held until the test has looked), the header and the trace list
    // already say the question.
    await page.locator('[data-hop="3"]').waitFor({ timeout: 20_000 });
    const listed = page.getByTestId("trace-list").locator('[aria-current="true"]');
    await expect.poll(() => listed.textContent().catch(() => ""), { timeout: 10_000 }).toContain(q);
    expect(await page.locator('[data-hop="4"]').count()).toBe(0);
    gate.release();
    await reply;
  });

  it("navigating by hand pauses following, visibly; the l key resumes it at the newest hop", async () => {
    const { page } = browser;
    await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 30_000 });
    // The question waits at hop 3 (the model held) while the learner steps about.
    gate.holdRequests();
    const reply = stack.ask(QUESTION);
    await page.locator('[data-hop="3"][data-selected="true"]').waitFor({ timeout: 20_000 });
    await page.keyboard.press("k");
    await page.locator('[data-testid="follow-live"][data-on="false"]').waitFor();
    await expect.poll(() => page.getByTestId("follow-live").textContent()).toContain("Paused — you picked hop 2");
    // Stepping on while paused: the bar names the hop picked now — by key and by mouse — not the first one.
    await page.keyboard.press("k");
    await expect.poll(() => page.getByTestId("follow-live").textContent()).toContain("Paused — you picked hop 1");
    await page.locator('[data-hop="3"]').click();
    await expect.poll(() => page.getByTestId("follow-live").textContent()).toContain("Paused — you picked hop 3");
    await page.keyboard.press("k");
    await expect.poll(() => page.getByTestId("follow-live").textContent()).toContain("Paused — you picked hop 2");
    expect(await page.locator('[data-testid="follow-live"][data-on="false"]').count()).toBe(1);
    await browser.screenshot("42-follow-live-paused-1280");
    // Another trace opened from the list says so (its first hop comes with it), until a hop is picked in it.
    await page.getByTestId("trace-list").locator("button[data-trace]").last().click();
    await expect
      .poll(() => page.getByTestId("follow-live").textContent())
      .toContain("Paused — you opened another trace");
    // Its hops must be there before a key can step through them (under load they arrive after the bar changes).
    await page.locator('[data-hop="1"][data-selected="true"]').waitFor();
    await page.keyboard.press("j");
    await expect.poll(() => page.getByTestId("follow-live").textContent()).toContain("Paused — you picked hop 2");
    // Back to the running question, at its hop 2.
    await page.getByTestId("trace-list").locator("button[data-trace]").first().click();
    await page.locator('[data-hop="1"][data-selected="true"]').waitFor();
    await page.keyboard.press("j");
    await expect.poll(() => page.getByTestId("follow-live").textContent()).toContain("Paused — you picked hop 2");
    // Hops keep arriving, but the view stays where the learner put it.
    gate.release();
    await page.locator('[data-hop="5"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-hop="2"]').getAttribute("data-selected")).toBe("true");
    await page.keyboard.press("l");
    await page.locator('[data-testid="follow-live"][data-on="true"]').waitFor();
    await expect
      .poll(async () => Number(await page.locator('[data-hop][data-selected="true"]').getAttribute("data-hop")), {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(5);
    await reply;
    await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 30_000 });
    // Paused while a new question starts: the view stays, and the bar says another one is running.
    await page.keyboard.press("g");
    await page.locator('[data-testid="follow-live"][data-on="false"]').waitFor();
    // The other question runs (held at the model) until the view has followed it.
    gate.holdRequests();
    const other = stack.ask("What's in my notes?");
    await expect
      .poll(
        () =>
          page
            .getByTestId("follow-live-elsewhere")
            .textContent()
            .catch(() => ""),
        { timeout: 20_000 },
      )
      .toBe("A question is running in another trace");
    expect(await page.locator('[data-hop="1"]').textContent()).toContain(QUESTION);
    await page.getByTestId("follow-live-resume").click();
    await expect
      .poll(() => page.locator('[data-hop="1"]').textContent(), { timeout: 20_000 })
      .toContain("What's in my notes?");
    gate.release();
    await other;
    await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 30_000 });
  });

  it("after Enter in the ask box the focus is back on the timeline, so the keys step through hops", async () => {
    const { page } = browser;
    await page.fill("#ask-input", QUESTION);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id ?? "")).not.toBe("ask-input");
    await page.locator('[data-hop="3"][data-selected="true"]').waitFor({ timeout: 20_000 });
    await page.keyboard.press("g");
    await page.locator('[data-hop="1"][data-selected="true"]').waitFor();
    expect(await page.inputValue("#ask-input")).toBe(QUESTION);
    await page.keyboard.press("l");
    await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 40_000 });
  });

  it("two questions at once: the view follows the newest and says so; each trace keeps its own hops", async () => {
    const { page } = browser;
    // Both questions wait at the model until the page has said two are running.
    gate.holdRequests();
    const older = stack.ask("What's in my notes?");
    await expect
      .poll(() => page.locator('[data-hop="1"]').textContent(), { timeout: 20_000 })
      .toContain("What's in my notes?");
    const newer = stack.ask(QUESTION);
    await expect.poll(() => page.locator('[data-hop="1"]').textContent(), { timeout: 20_000 }).toContain(QUESTION);
    await expect
      .poll(
        () =>
          page
            .getByTestId("follow-live-many")
            .textContent()
            .catch(() => ""),
        { timeout: 10_000 },
      )
      .toBe("2 questions running — following the newest");
    await browser.screenshot("43-follow-live-two-questions-1280");
    expect(await page.getByTestId("follow-live").getAttribute("data-on")).toBe("true");
    gate.release();
    await Promise.all([older, newer]);
    await page.locator('[data-hop="8"][data-selected="true"]').waitFor({ timeout: 40_000 });
    expect(await page.locator('[data-hop="1"]').textContent()).toContain(QUESTION);
    const a = await stack.waitForTrace("What's in my notes?", 20_000);
    const b = await stack.waitForTrace(QUESTION, 20_000);
    expect(a.id).not.toBe(b.id);
    expect(a.exchanges.filter((x) => x.tap === "agent")).toHaveLength(1);
    expect(b.exchanges.filter((x) => x.tap === "agent")).toHaveLength(1);
  });

  it("in presenter mode too: the caption follows each hop as it arrives", async () => {
    const { page } = browser;
    await page.locator('[data-testid="follow-live"][data-on="true"]').waitFor();
    // The page still shows the previous test's trace (its caption at 8): wait for the new one to be followed.
    const shown = () => new URL(page.url()).hash.match(/trace\/([0-9a-f]+)/)?.[1];
    const before = shown();
    // The question waits at hop 3 (the model held) until the caption is watched.
    gate.holdRequests();
    const reply = stack.ask(QUESTION);
    await expect.poll(shown, { timeout: 20_000 }).not.toBe(before);
    await page.locator('[data-hop="2"]').waitFor({ timeout: 20_000 });
    await page.keyboard.press("p");
    const presenter = page.getByTestId("presenter");
    await presenter.waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __numbers: string[] };
      w.__numbers = [];
      new MutationObserver(() => {
        const n = document.querySelector('[data-testid="presenter"] [data-testid="caption"] span')?.textContent ?? "";
        if (n && w.__numbers.at(-1) !== n) w.__numbers.push(n);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    gate.release();
    await expect
      .poll(() => presenter.getByTestId("caption").locator("span").first().textContent(), { timeout: 30_000 })
      .toBe("8");
    const numbers = await page.evaluate(() => (window as unknown as { __numbers: string[] }).__numbers.map(Number));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.length).toBeGreaterThanOrEqual(4);
    expect(await presenter.getByTestId("follow-live").getAttribute("data-on")).toBe("true");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("44-follow-live-presenter-1920");
    await page.setViewportSize({ width: 1280, height: 720 });
    await reply;
    await page.keyboard.press("Escape");
  });
});
