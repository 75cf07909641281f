import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatZodIssues, issueField } from "../../src/json/zod-error";

const Schema = z.object({ messages: z.array(z.object({ role: z.string() })), model: z.string() });
const error = Schema.safeParse({ messages: [{ role: 1 }, {}], model: 2 }).error!;

describe("formatZodIssues", () => {
  it("names each field as zod's paths read, on one line by default", () => {
    expect(formatZodIssues(error, { whole: "body" })).toBe(
      "messages[0].role: Invalid input: expected string, received number; " +
        "messages[1].role: Invalid input: expected string, received undefined; " +
        "model: Invalid input: expected string, received number",
    );
  });

  it("lists one per line with an indent, and counts what it leaves out", () => {
    expect(formatZodIssues(error, { whole: "body", separator: "\n", indent: "  ", max: 1 })).toBe(
      "  messages[0].role: Invalid input: expected string, received number\n  … and 2 more problems",
    );
  });

  it("calls an issue about the whole value by the caller's name, or by the caller's field names", () => {
    const whole = z.string().safeParse(3).error!;
    expect(formatZodIssues(whole, { whole: "the chunk" })).toBe(
      "the chunk: Invalid input: expected string, received number",
    );
    expect(formatZodIssues(error, { whole: "env", max: 1, field: (p) => `${String(p[0])}=?` })).toBe(
      "messages=?: Invalid input: expected string, received number; … and 2 more problems",
    );
  });

  it("quotes keys that are not identifiers", () => {
    expect(issueField(["_meta", "io.modelcontextprotocol/protocolVersion"], "_meta")).toBe(
      '_meta["io.modelcontextprotocol/protocolVersion"]',
    );
  });
});
