import { describe, expect, it } from "vitest";
import { parseTraceparent } from "@hopscope/shared/trace/traceparent";
import { childTraceparent, continueOrStartTrace, newTraceparent, randomHexId } from "../src/trace-ids";

const INCOMING = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("traceparent", () => {
  it("parses a version-00 header", () => {
    expect(parseTraceparent(INCOMING)).toEqual({
      version: "00",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      parentId: "00f067aa0ba902b7",
      flags: "01",
    });
  });

  it.each([
    ["absent", undefined],
    ["garbage", "hello"],
    ["all-zero trace id", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"],
    ["all-zero parent id", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"],
    ["version ff", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"],
    ["extra field on version 00", `${INCOMING}-extra`],
    ["short trace id", "00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01"],
  ])("rejects %s", (_name, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it("accepts a later version with extra fields", () => {
    expect(parseTraceparent(`01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-future`)?.flags).toBe("00");
  });

  it("continues an incoming trace: same trace id and flags, a new span id per call", () => {
    const ctx = continueOrStartTrace(INCOMING);
    const a = childTraceparent(ctx);
    const b = childTraceparent(ctx);
    expect(a).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    expect(a.split("-")[2]).not.toBe("00f067aa0ba902b7");
    expect(a).not.toBe(b);
  });

  it("starts a sampled trace when none (or an invalid one) came in", () => {
    const ctx = continueOrStartTrace("nonsense");
    expect(ctx.parentId).toBeNull();
    const header = childTraceparent(ctx);
    expect(parseTraceparent(header)).toMatchObject({ traceId: ctx.traceId, flags: "01" });
    expect(continueOrStartTrace(undefined).traceId).not.toBe(ctx.traceId);
  });

  it("starts new traces with fresh ids that are never all zeros", () => {
    const a = parseTraceparent(newTraceparent());
    const b = parseTraceparent(newTraceparent());
    expect(a?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(a?.traceId).not.toBe(b?.traceId);
    expect(randomHexId(8)).toMatch(/^[0-9a-f]{16}$/);
  });
});
