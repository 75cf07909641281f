/**
 * Debian's Chromium driven by playwright-core: headless, a fresh profile per launch, 1280×720 (the
 * projector size the UI must stay readable at). Screenshots go to test-results/screenshots/.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const SCREENSHOTS = fileURLToPath(new URL("../../../test-results/screenshots/", import.meta.url));

/** Headless flags: no sandbox (it needs privileges a container lacks), no GPU, and none of Chromium's own traffic (updates, sync) in a test or a measurement. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  page: Page;
  context: BrowserContext;
  /** Errors thrown in the page (uncaught exceptions and console.error), for assertions. */
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openBrowser(opts: { colorScheme?: "light" | "dark" } = {}): Promise<Browser> {
  const profile = await mkdtemp(join(tmpdir(), "hopscope-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 720 },
    colorScheme: opts.colorScheme ?? "light",
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") pageErrors.push(msg.text());
  });
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    page,
    context,
    pageErrors,
    async screenshot(name) {
      const path = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
