/**
 * The storage banner in a real browser: the recorder's database on a 2 MB tmpfs that fills up while
 * requests pass through a tap. The page says, readably, that recording is not reaching the disk (and that
 * the agent still works), then that it resumed and how much was lost. Needs root (mount).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, request, startUpstream, type Upstream } from "../../apps/proxy/test/helpers";
import { closeAll, startRecorder, type TestRecorder } from "../support/recorder";
import type { Browser } from "./support/browser";
import { browserSuite } from "./support/suite";

describe("storage banner", () => {
  const suite = browserSuite({ stack: false, colorScheme: "light" });
  let root: string;
  let disk: string;
  let rec: TestRecorder;
  let up: Upstream;
  let browser: Browser;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "hopscope-banner-"));
    disk = path.join(root, "disk");
    execFileSync("mkdir", ["-p", disk]);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk]);
    up = await startUpstream((_req, res) =>
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ pad: "x".repeat(20_000) })),
    );
    rec = await startRecorder({ mcp: up.url }, { dbFile: path.join(disk, "hopscope.sqlite"), webDist: suite.ui });
    browser = suite.browser;
  }, 120_000);

  afterAll(async () => {
    await closeAll(rec, up);
    execFileSync("umount", ["-l", disk]);
    await rm(root, { recursive: true, force: true });
  });

  const send = (n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        request(`${rec.taps.mcp.url}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: `{"jsonrpc":"2.0","id":${i},"method":"tools/list"}`,
        }),
      ),
    );

  it("shows that recording fails while the disk is full, and that it resumed afterwards", async () => {
    const { page } = browser;
    await page.goto(rec.url);
    await page.getByTestId("connection").and(page.locator('[data-state="live"]')).waitFor();
    expect(await page.getByTestId("storage-banner").count()).toBe(0);

    const free = Number(execFileSync("df", ["--output=avail", "-B1", disk]).toString().split("\n")[1]);
    const filler = path.join(disk, "filler");
    await writeFile(filler, Buffer.alloc(free));
    const answered = await send(20);
    expect(answered.every((r) => r.status === 200)).toBe(true);

    const banner = page.locator('[data-testid="storage-banner"][data-state="failing"]');
    await banner.waitFor({ timeout: 15_000 });
    const text = await banner.innerText();
    expect(text).toContain("Not recording to disk");
    expect(text).toContain("every request is forwarded");
    expect(text).toMatch(/SQLITE_FULL/);
    expect(text).toMatch(/The last at \d{2}:\d{2}:\d{2}\./);
    // Readable on a projector: the banner's text is at least 16 px.
    expect(await banner.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);
    await browser.screenshot("storage-banner-1280x720");
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("storage-banner-1920x1080");
    await page.setViewportSize({ width: 1280, height: 720 });

    await rm(filler);
    await send(2);
    const recovered = page.locator('[data-testid="storage-banner"][data-state="recovered"]');
    await recovered.waitFor({ timeout: 15_000 });
    const health = await getJson<{ storage: { notStored: number } }>(`${rec.url}/api/health`);
    expect(await recovered.innerText()).toContain(
      `${health.body.storage.notStored} exchanges were forwarded but not stored`,
    );
    expect(await recovered.innerText()).toMatch(/The last at \d{2}:\d{2}:\d{2}\./);
    await browser.screenshot("storage-banner-recovered-1280x720");
    await recovered.getByRole("button", { name: "Dismiss" }).click();
    await page.getByTestId("storage-banner").waitFor({ state: "detached" });
    // The trace list, where the traces are read, still says what they may miss once the banner is dismissed.
    const listed = page.getByTestId("traces-not-stored");
    expect(await listed.innerText()).toContain(
      `${health.body.storage.notStored.toLocaleString("en")} exchanges were forwarded but not stored`,
    );
    expect(await listed.innerText()).toMatch(/The last at \d{2}:\d{2}:\d{2}\./);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await browser.screenshot("storage-not-stored-list-1920x1080");
    await page.setViewportSize({ width: 1280, height: 720 });
    await browser.screenshot("storage-not-stored-list-1280x720");
    // Following live selects each hop as it arrives, so the page asks for exchanges the full disk lost; the
    // detail pane says so ("no exchange N"; Chromium logs each 404). Nothing else may fail.
    const lost =
      /loading exchange \d+ failed ApiError: GET \/api\/exchanges\/\d+ failed: no exchange \d+|status of 404 \(Not Found\)/;
    expect(browser.pageErrors.filter((e) => !lost.test(e))).toEqual([]);
  }, 90_000);
});
