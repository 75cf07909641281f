import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue, needsHeaderEncoding } from "@hopscope/shared/mcp/headers";

describe("=?base64?…?= header values", () => {
  it("passes plain ASCII through", () => {
    expect(encodeHeaderValue("append")).toBe("append");
    expect(needsHeaderEncoding("get_weather")).toBe(false);
  });

  it.each(["café", " leading", "trailing ", "", "line\nbreak", "=?base64?YQ==?="])(
    "wraps %j and round-trips it",
    (value) => {
      const encoded = encodeHeaderValue(value);
      expect(encoded.startsWith("=?base64?")).toBe(true);
      expect(encoded.endsWith("?=")).toBe(true);
      expect(decodeHeaderValue(encoded)).toEqual({ ok: true, value });
    },
  );

  it("encodes UTF-8 bytes, not UTF-16 code units", () => {
    expect(encodeHeaderValue("é")).toBe("=?base64?w6k=?=");
  });

  it("reports bad Base64 and non-UTF-8 payloads", () => {
    expect(decodeHeaderValue("=?base64?***?=").ok).toBe(false);
    expect(decodeHeaderValue(`=?base64?${btoa("\xff\xfe")}?=`).ok).toBe(false);
  });
});
