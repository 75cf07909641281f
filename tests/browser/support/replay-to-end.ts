/** Plays the open trace's replay to its last hop the way a speaker does: auto-advance at 4×, Space at each key hop. */
import type { Page } from "playwright-core";
import { expect } from "vitest";

export async function autoReplayToEnd(page: Page, lastHop: number): Promise<void> {
  await page.keyboard.press("m");
  for (const _ of [1, 2]) await page.keyboard.press("f"); // 4×
  expect(await page.getByTestId("speed").inputValue()).toBe("4");
  await page.keyboard.press(" ");
  await expect
    .poll(
      async () => {
        if ((await page.getByTestId("replay-status").textContent())?.includes("paused at key hop"))
          await page.keyboard.press(" ");
        return page.getByTestId("hop-position").textContent();
      },
      { timeout: 30_000 },
    )
    .toContain(`hop ${lastHop} / ${lastHop}`);
}
