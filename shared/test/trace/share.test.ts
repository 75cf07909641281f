import { describe, expect, it } from "vitest";
import { scriptSafeJson } from "../../src/trace/share";

describe("scriptSafeJson", () => {
  it("leaves no character that could end or re-mode a <script> element, and reads back the same value", () => {
    const value = {
      body: "</script><script>alert(1)</script><!-- --> & \u2028\u2029 $& $'",
      nested: ["</SCRIPT>", "<img src=x onerror=alert(2)>"],
    };
    const text = scriptSafeJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
