import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("what a classification and the grouper keep of a big system prompt", () => {
  it("holds far less than the prompts themselves: no cut of a text keeps the whole text alive", () => {
    const probe = join(import.meta.dirname, "fixtures", "retained-probe.ts");
    const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", probe], { encoding: "utf8" });
    const { held, kept, bigTextBytes } = JSON.parse(out) as { held: number; kept: number; bigTextBytes: number };
    expect(kept).toBe(400);
    // 200 prompts of 100,000 characters: kept whole, at least 20 MB; cut (a clipped text is 4,000 characters) and hashed, about 2 MB.
    expect(held).toBeLessThan(bigTextBytes / 5);
  });
});
