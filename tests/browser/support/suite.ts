/**
 * One browser test file's setup: a freshly built UI, the real stack serving it, and Chromium — started in
 * beforeAll, closed in afterAll (in reverse order). Read the fields inside tests (they are set by then).
 */
import { afterAll, beforeAll } from "vitest";
import type { Page } from "playwright-core";
import { startRecorderStack, type RecorderStack, type RecorderStackOptions } from "../../support/recorder-stack";
import { openBrowser, type Browser } from "./browser";
import { buildUi } from "./build-ui";

export type SuiteStackOptions = Omit<RecorderStackOptions, "webDist">;
type ColorScheme = "light" | "dark";

export interface Suite {
  /** The built UI's folder, for a server a test starts itself. */
  ui: string;
  /** The stack serving `ui` (unset when the suite was asked for none). */
  stack: RecorderStack;
  browser: Browser;
  /** `browser.page`. */
  readonly page: Page;
  /** Screenshots `<name>-1280` at 1280×720 and `<name>-1920` at 1920×1080, leaving the page at 1280×720. */
  screenshots(name: string): Promise<void>;
  /** Runs in afterAll before the suite's own parts close, the latest first: what a test started itself. */
  closeLater(close: () => unknown): void;
  /** Another Chromium (a second viewer), closed with the suite. */
  openBrowser(colorScheme: ColorScheme): Promise<Browser>;
}

export interface SuiteOptions {
  /**
   * The stack's options, or a function returning them (run in beforeAll, for a stack in front of a server
   * started first); `false` when the test starts its own servers on `suite.ui`.
   */
  stack?: SuiteStackOptions | (() => Promise<SuiteStackOptions>) | false;
  colorScheme?: ColorScheme;
}

export function browserSuite(opts: SuiteOptions = {}): Suite {
  const closers: (() => unknown)[] = [];
  let removeUi: (() => Promise<void>) | undefined;
  const suite: Suite = {
    ui: "",
    stack: undefined as unknown as RecorderStack,
    browser: undefined as unknown as Browser,
    get page() {
      return suite.browser.page;
    },
    async screenshots(name) {
      await suite.page.setViewportSize({ width: 1280, height: 720 });
      await suite.browser.screenshot(`${name}-1280`);
      await suite.page.setViewportSize({ width: 1920, height: 1080 });
      await suite.browser.screenshot(`${name}-1920`);
      await suite.page.setViewportSize({ width: 1280, height: 720 });
    },
    closeLater(close) {
      closers.push(close);
    },
    async openBrowser(colorScheme) {
      const other = await openBrowser({ colorScheme });
      closers.push(() => other.close());
      return other;
    },
  };
  beforeAll(async () => {
    const ui = await buildUi();
    removeUi = ui.remove;
    suite.ui = ui.dir;
    if (opts.stack !== false) {
      const stackOpts = typeof opts.stack === "function" ? await opts.stack() : (opts.stack ?? {});
      suite.stack = await startRecorderStack({ ...stackOpts, webDist: ui.dir });
    }
    suite.browser = await openBrowser({ colorScheme: opts.colorScheme ?? "dark" });
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await suite.browser?.close();
    await suite.stack?.close();
    await removeUi?.();
  });
  return suite;
}
