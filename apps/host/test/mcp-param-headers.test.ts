import { describe, expect, it } from "vitest";
import type { Tool } from "@hopscope/shared/mcp/tools";
import { paramHeadersOf, paramHeaderValues } from "../src/agent/mcp-param-headers";

const tool = (properties: Record<string, Record<string, unknown>>): Tool => ({
  name: "t",
  inputSchema: { type: "object", properties },
});

describe("x-mcp-header", () => {
  it("finds the mirrored arguments", () => {
    expect(
      paramHeadersOf(tool({ region: { type: "string", "x-mcp-header": "Region" }, n: { type: "integer" } })),
    ).toEqual({
      headers: [{ property: "region", name: "Region" }],
    });
  });

  it.each([
    ["a name that is not a token", { a: { type: "string", "x-mcp-header": "Bad Name" } }, /header-name token/],
    ["a number property", { a: { type: "number", "x-mcp-header": "A" } }, /only string, integer and boolean/],
    [
      "the same name twice",
      { a: { type: "string", "x-mcp-header": "A" }, b: { type: "string", "x-mcp-header": "a" } },
      /used twice/,
    ],
  ])("calls a tool invalid for %s", (_name, properties, reason) => {
    const result = paramHeadersOf(tool(properties));
    expect("invalid" in result && result.invalid).toMatch(reason);
  });

  it("encodes values, leaves out absent and null ones", () => {
    const params = [
      { property: "r", name: "Region" },
      { property: "n", name: "N" },
      { property: "b", name: "B" },
      { property: "u", name: "U" },
      { property: "z", name: "Z" },
    ];
    expect(paramHeaderValues(params, { r: "café", n: 42, b: false, z: null })).toEqual({
      "mcp-param-region": `=?base64?${Buffer.from("café").toString("base64")}?=`,
      "mcp-param-n": "42",
      "mcp-param-b": "false",
    });
  });
});
