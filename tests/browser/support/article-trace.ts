/**
 * A browser suite with the article's question ("Add buy milk to my notes") asked once through the recorder, and
 * presenter mode opened on one of its hops: the setup the presenter tests share.
 */
import { beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import { browserSuite, type Suite } from "./suite";

export interface ArticleTraceSuite extends Suite {
  /** The trace the question was recorded in (set in beforeAll). */
  traceId: string;
  /** Opens presenter mode on `hop` and waits until that hop is selected. */
  present(hop: number): Promise<void>;
}

export function articleTraceSuite(): ArticleTraceSuite {
  const suite = browserSuite() as ArticleTraceSuite;
  suite.traceId = "";
  beforeAll(async () => {
    const res = await fetch(`${suite.stack.uiUrl}/api/ask`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "Add buy milk to my notes" }),
    });
    expect(res.status).toBe(200);
    const list = (await (await fetch(`${suite.stack.uiUrl}/api/traces`)).json()) as { traces: { id: string }[] };
    suite.traceId = list.traces[0]!.id;
  });
  suite.present = async (hop) => {
    await suite.page.goto(`${suite.stack.uiUrl}/#/trace/${suite.traceId}/hop/${hop}/present`);
    await suite.page.getByTestId("presenter").waitFor();
    await suite.page.locator(`[data-hop="${hop}"][data-selected="true"]`).waitFor();
  };
  return suite;
}

/** The presenter header's question as laid out: its text and tooltip, lines shown, whether it is cut, what runs off screen. */
export function presenterTitle(page: Page) {
  return page.getByTestId("presenter").evaluate((root) => {
    const el = root.querySelector('[data-testid="presenter-title"]') as HTMLElement;
    const line = parseFloat(getComputedStyle(el).lineHeight);
    const head = el.parentElement as HTMLElement;
    const outside = [...head.children]
      .filter((c) => c.getBoundingClientRect().right > innerWidth + 0.5 || c.getBoundingClientRect().left < -0.5)
      .map((c) => c.textContent);
    return {
      text: el.textContent,
      title: el.title,
      lines: Math.round(el.getBoundingClientRect().height / line),
      clamped: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
      outside,
      lastHopBottom: Math.max(...[...root.querySelectorAll("[data-hop]")].map((r) => r.getBoundingClientRect().bottom)),
    };
  });
}
