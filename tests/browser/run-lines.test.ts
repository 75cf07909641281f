/**
 * A run's main line, its retry and its side request, in Chromium against the real stack: opencode's recorded
 * requests (tests/fixtures/agents/opencode) sent through the model tap with its headers, as opencode sends them —
 * its title request, then its question, whose answer the client cuts and sends again. Following live, the
 * view never leaves the main line for the title's hops; the title is marked "side request: title generation",
 * the resent question "retry of hop 3", each with its reason in the hop's detail; the mark is keyboard
 * reachable. Screenshots at 1920×1080 and 1280×720, dark and light.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { browserSuite } from "./support/suite";

interface Recorded {
  path: string;
  headers: Record<string, string>;
  requestBody: string;
}

const suite = browserSuite({ stack: { simTokensPerSecond: 12 }, colorScheme: "dark" });

function recorded(n: number): Recorded {
  const url = new URL(`../fixtures/agents/opencode/model-0${n}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as Recorded;
}

/** The request as opencode sent it: its body and its own headers (not the hop-by-hop ones of the recording). */
function send(r: Recorded, signal?: AbortSignal): Promise<Response> {
  const skip = new Set(["host", "content-length", "connection", "accept-encoding"]);
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !skip.has(k)));
  return fetch(`${suite.stack.tapUrls.model}${r.path}`, { method: "POST", headers, body: r.requestBody, signal });
}

interface Listed {
  traces: { id: string; name: string }[];
}

async function exchangesOfOnlyTrace(): Promise<{ id: string; states: string[] }> {
  const list = (await (await fetch(`${suite.stack.uiUrl}/api/traces`)).json()) as Listed;
  if (list.traces.length !== 1) return { id: "", states: list.traces.map((t) => `trace ${t.name}`) };
  const id = list.traces[0]?.id ?? "";
  const trace = (await (await fetch(`${suite.stack.uiUrl}/api/traces/${id}`)).json()) as {
    exchanges: { state: string }[];
  };
  return { id, states: trace.exchanges.map((x) => x.state) };
}

it("marks the retry and the side request, and follows the main line live", { timeout: 120_000 }, async () => {
  const { page } = suite.browser;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(suite.stack.uiUrl);
  await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
  await page.locator('[data-testid="follow-live"][data-on="true"]').waitFor();
  // Every hop following selects, in order.
  await page.evaluate(() => {
    const w = window as unknown as { __followed: string[] };
    w.__followed = [];
    new MutationObserver(() => {
      const hop = document.querySelector('[data-selected="true"]')?.getAttribute("data-hop");
      if (hop && w.__followed.at(-1) !== hop) w.__followed.push(hop);
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-selected"], childList: true });
  });
  const title = recorded(1);
  const question = recorded(2);

  await (await send(title)).text();
  // The question's first answer is cut by its client after the first bytes; it sends the same request again.
  const cut = new AbortController();
  const first = await send(question, cut.signal);
  await first.body?.getReader().read();
  cut.abort();
  await expect.poll(async () => (await exchangesOfOnlyTrace()).states, { timeout: 20_000 }).toContain("aborted");
  await (await send(question)).text();
  await expect
    .poll(async () => (await exchangesOfOnlyTrace()).states.join(" "), { timeout: 30_000 })
    .toBe("complete aborted complete");

  // Followed live: hop 3 (the question) to hop 6 (its retry's answer), never the title's hops 1 and 2.
  await page.locator('[data-hop="6"][data-selected="true"]').waitFor({ timeout: 20_000 });
  const followed = await page.evaluate(() => (window as unknown as { __followed: string[] }).__followed);
  expect(followed).not.toContain("1");
  expect(followed).not.toContain("2");
  expect(followed).toContain("3");
  expect(await page.locator('[data-testid="follow-live"]').getAttribute("data-on")).toBe("true");

  // The marks on screen.
  const side = page.locator('[data-hop="1"]');
  expect(await side.getAttribute("data-line")).toBe("side");
  expect(await page.locator('[data-hop="2"]').getAttribute("data-line")).toBe("side");
  expect(await side.locator("[data-line-mark]").textContent()).toBe("↳ side request: title generation");
  expect(await page.locator('[data-hop="3"]').getAttribute("data-line")).toBe("main");
  expect(await page.locator('[data-hop="3"] [data-line-mark]').count()).toBe(0);
  const retry = page.locator('[data-hop="5"] [data-line-mark="retry"]');
  expect(await retry.textContent()).toMatch(/^↻ retry of hop\s3$/);
  expect(await retry.isVisible()).toBe(true);
  await suite.screenshots("run-lines-marks");

  // The reasons, in the hop's detail.
  await page.locator('[data-hop="1"]').click();
  const caption = page.getByTestId("hop-detail").getByTestId("caption").locator("h2");
  expect(await caption.textContent()).toBe("A side request: title generation");
  const note = page.getByTestId("line-note");
  expect(await note.textContent()).toBe(
    `Side request: title generation. Beside the main line (hop 3): its own system prompt ("You are a title generator."), no tools, a history that does not continue hop 3's; its own words ask for title generation.`,
  );
  await page.locator('[data-hop="3"]').click();
  expect(await caption.textContent()).toBe("The host asks the model");
  expect(await note.textContent()).toBe("Main line. The request that offers the most tools (32).");
  await page.locator('[data-hop="5"]').click();
  expect(await caption.textContent()).toBe("The host sends the same request again");
  expect(await note.textContent()).toContain(
    "Retry of hop 3 (attempt 2). The same messages as hop 3, whose answer was cut.",
  );
  await suite.screenshots("run-lines-retry-detail");

  // Keyboard: the retry's mark is a button that goes to the attempt it repeats.
  await retry.focus();
  await page.keyboard.press("Enter");
  await page.locator('[data-hop="3"][data-selected="true"]').waitFor();

  // On stage (presenter mode, the projector's size): the marks stay on their rows, larger.
  await page.locator('[data-hop="1"]').click();
  await page.keyboard.press("p");
  await page.locator('html[data-presenter="on"]').waitFor();
  expect(await page.locator('[data-hop="1"] [data-line-mark="side"]').isVisible()).toBe(true);
  expect(await page.locator('[data-hop="5"] [data-line-mark="retry"]').isVisible()).toBe(true);
  await suite.screenshots("run-lines-presenter");
  await page.keyboard.press("p");

  // The light theme, in a second viewer.
  const light = await suite.openBrowser("light");
  await light.page.setViewportSize({ width: 1280, height: 720 });
  const { id } = await exchangesOfOnlyTrace();
  await light.page.goto(`${suite.stack.uiUrl}/#/trace/${id}`);
  await light.page.locator('[data-hop="5"] [data-line-mark="retry"]').waitFor();
  await light.page.locator('[data-hop="1"]').click();
  await light.screenshot("run-lines-light-1280");
  await light.page.setViewportSize({ width: 1920, height: 1080 });
  await light.screenshot("run-lines-light-1920");
  expect(suite.browser.pageErrors).toEqual([]);
  expect(light.pageErrors).toEqual([]);
});
