/**
 * One browser test file's setup: a freshly built UI, the real stack serving it, and Chromium — started in
 * beforeAll, closed in afterAll (in reverse order). Read the fields inside tests (they are set by then).
 */
import { afterAll, beforeAll } from "vitest";
import { openBrowser, type Browser } from "./browser";
import { buildUi } from "./build-ui";
import { startRecordedStack, type RecordedStack, type RecordedStackOptions } from "./recorded-stack";

export interface Suite {
  stack: RecordedStack;
  browser: Browser;
}

export function browserSuite(
  opts: Omit<RecordedStackOptions, "webDist"> = {},
  colorScheme: "light" | "dark" = "dark",
): Suite {
  const suite = {} as Suite;
  let ui: Awaited<ReturnType<typeof buildUi>> | undefined;
  beforeAll(async () => {
    ui = await buildUi();
    suite.stack = await startRecordedStack({ ...opts, webDist: ui.dir });
    suite.browser = await openBrowser({ colorScheme });
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.stack?.close();
    await ui?.remove();
  });
  return suite;
}
