import { describe, expect, it } from "vitest";
import { FIRST_RETRY_MS, LAST_RETRY_MS, afterFailure, mayRetry } from "../src/models/retry-after";

describe("retrying a failed load", () => {
  it("waits before trying again, twice as long after each failure, never more than the cap", () => {
    const first = afterFailure(null, 1000);
    expect(first).toEqual({ failures: 1, retryAt: 1000 + FIRST_RETRY_MS });
    expect(mayRetry(first, 1000 + FIRST_RETRY_MS - 1)).toBe(false);
    expect(mayRetry(first, 1000 + FIRST_RETRY_MS)).toBe(true);
    const second = afterFailure(first, 2000);
    expect(second.retryAt - 2000).toBe(2 * FIRST_RETRY_MS);
    let f = second;
    for (let i = 0; i < 20; i++) f = afterFailure(f, 0);
    expect(f.retryAt).toBe(LAST_RETRY_MS);
  });
});
