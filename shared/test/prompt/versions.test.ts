/**
 * What changes with the Ollama version: tool JSON omitempty rules, nested properties, the struct dump, tool
 * message merging before 0.9.6, nil tool-call arguments. Expected strings are derived by hand from the Go
 * structs quoted in reference §2.2/§10 and the tags of each release (api/types.go).
 */
import { describe, expect, it } from "vitest";
import { renderChat } from "@hopscope/shared/prompt/render";
import { RenderInputError } from "@hopscope/shared/prompt/tool-decode";
import {
  DEFAULT_OLLAMA_VERSION,
  atLeast,
  compareVersions,
  familyOf,
  featuresFor,
} from "@hopscope/shared/prompt/version";

const clear = { type: "function", function: { name: "clear", parameters: { type: "object", properties: {} } } };
const append = {
  type: "function",
  function: {
    name: "append",
    description: "Append",
    parameters: { type: "object", properties: { content: { type: "string" } }, required: ["content"] },
  },
};
const nested = {
  type: "function",
  function: {
    name: "style",
    description: "Style",
    parameters: {
      type: "object",
      properties: { opts: { type: "object", properties: { z: { type: "string" }, a: { type: "string" } } } },
    },
  },
};
const user = { role: "user", content: "hi" };

/** The JSON (or dump) between `"function": ` and the template's closing `}` on each tool line. */
function toolFns(tools: unknown[], version: string): string[] {
  const text = renderChat({ model: "m", messages: [user], tools }, { ollamaVersion: version }).text;
  return text
    .split("\n")
    .filter((l) => l.startsWith('{"type": "function", "function": '))
    .map((l) => l.slice('{"type": "function", "function": '.length, -1));
}

describe("version ordering", () => {
  it("orders releases and pre-releases like semver", () => {
    expect(DEFAULT_OLLAMA_VERSION).toBe("0.32.15");
    expect(familyOf(DEFAULT_OLLAMA_VERSION).id).toBe("0.20+");
    expect(compareVersions("0.14.0-rc0", "0.14.0")).toBeLessThan(0);
    expect(compareVersions("0.14.0-rc10", "0.14.0-rc9")).toBeGreaterThan(0);
    expect(compareVersions("0.13.10", "0.13.5")).toBeGreaterThan(0);
    expect(compareVersions("v0.13.5", "0.13.5")).toBe(0);
    expect(atLeast("0.14.0-rc0", "0.14.0-rc0")).toBe(true);
    expect(featuresFor("0.14.0-rc0").structDump).toBe(true);
    expect(featuresFor("0.13.5").structDump).toBe(false);
    expect(() => compareVersions("latest", "0.1.0")).toThrow(/not an Ollama version/);
  });
});

describe("release families", () => {
  it.each([
    ["0.33.0-rc2", "0.20+"],
    ["v0.32.15", "0.20+"],
    ["0.30", "0.20+"],
    ["0.20.0-rc0", "0.20+"],
    ["0.19.9", "0.14"],
    ["0.14.0-rc0", "0.14"],
    ["0.14.0-rc0+build.5", "0.14"],
    ["0.13.5", "0.13"],
    ["0.3.0", "0.13"],
  ])("%s → %s", (version, id) => {
    expect(familyOf(version).id).toBe(id);
  });
  it("says what a version string should look like", () => {
    expect(() => familyOf("latest")).toThrow(/"latest" is not an Ollama version: expected something like/);
  });
});

describe("tool JSON per release family", () => {
  it("≤ 0.12.5: empty description and nil required are printed", () => {
    expect(toolFns([clear, append], "0.12.5")).toEqual([
      '{"name":"clear","description":"","parameters":{"type":"object","required":null,"properties":{}}}',
      '{"name":"append","description":"Append","parameters":{"type":"object","required":["content"],"properties":{"content":{"type":"string","description":""}}}}',
    ]);
  });
  it("0.12.6 – 0.12.10: description and type omitempty, required still null", () => {
    expect(toolFns([clear, append], "0.12.10")).toEqual([
      '{"name":"clear","parameters":{"type":"object","required":null,"properties":{}}}',
      '{"name":"append","description":"Append","parameters":{"type":"object","required":["content"],"properties":{"content":{"type":"string"}}}}',
    ]);
  });
  it("0.12.11 – 0.13.4: required omitempty too; nested properties dropped", () => {
    expect(toolFns([clear, nested], "0.13.4")).toEqual([
      '{"name":"clear","parameters":{"type":"object","properties":{}}}',
      '{"name":"style","description":"Style","parameters":{"type":"object","properties":{"opts":{"type":"object"}}}}',
    ]);
  });
  it("0.13.5: nested properties kept, keys sorted", () => {
    expect(toolFns([nested], "0.13.5")).toEqual([
      '{"name":"style","description":"Style","parameters":{"type":"object","properties":{"opts":{"type":"object","properties":{"a":{"type":"string"},"z":{"type":"string"}}}}}}',
    ]);
  });
  it("≥ 0.14: struct dump; nested properties keep the client's order, top level is sorted", () => {
    expect(toolFns([clear, nested, append], "0.14.0")).toEqual([
      "{clear  {object <nil> <nil> [] {}}}",
      '{style Style {object <nil> <nil> [] {"opts":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"string"}}}}}}',
      '{append Append {object <nil> <nil> [content] {"content":{"type":"string"}}}}',
    ]);
  });
  it("≥ 0.20: a nested property keeps its own required (api.ToolProperty.Required)", () => {
    const withRequired = {
      type: "function",
      function: {
        name: "remind",
        parameters: {
          type: "object",
          properties: { at: { type: "object", properties: { day: { type: "string" } }, required: ["day"] } },
        },
      },
    };
    expect(toolFns([withRequired], "0.14.3")).toEqual([
      '{remind  {object <nil> <nil> [] {"at":{"type":"object","properties":{"day":{"type":"string"}}}}}}',
    ]);
    expect(toolFns([withRequired], "0.20.0-rc0")).toEqual([
      '{remind  {object <nil> <nil> [] {"at":{"type":"object","properties":{"day":{"type":"string"}},"required":["day"]}}}}',
    ]);
  });
  it("< 0.7: the anonymous struct rejects type arrays and drops items", () => {
    expect(
      toolFns(
        [
          {
            type: "function",
            function: {
              name: "t",
              description: "d",
              parameters: { type: "object", properties: { x: { type: "string", items: { type: "string" } } } },
            },
          },
        ],
        "0.6.0",
      ),
    ).toEqual([
      '{"name":"t","description":"d","parameters":{"type":"object","required":null,"properties":{"x":{"type":"string","description":""}}}}',
    ]);
    expect(() =>
      renderChat(
        {
          model: "m",
          messages: [user],
          tools: [
            {
              type: "function",
              function: { name: "t", parameters: { type: "object", properties: { x: { type: ["string", "null"] } } } },
            },
          ],
        },
        { ollamaVersion: "0.6.0" },
      ),
    ).toThrow(RenderInputError);
  });
});

describe("messages per release", () => {
  const results = [user, { role: "tool", content: "A" }, { role: "tool", content: "B" }];
  it("merges consecutive tool results before 0.9.6", () => {
    expect(renderChat({ model: "m", messages: results }, { ollamaVersion: "0.9.5" }).text).toContain(
      "<|im_start|>user\n<tool_response>\nA\n\nB\n</tool_response><|im_end|>\n<|im_start|>assistant\n",
    );
    expect(renderChat({ model: "m", messages: results }, { ollamaVersion: "0.9.6" }).text).toContain(
      "<tool_response>\nA\n</tool_response><|im_end|>\n<|im_start|>user\n<tool_response>\nB\n</tool_response>",
    );
  });
  it("prints missing tool-call arguments as null up to 0.13.x and {} from 0.14", () => {
    const req = {
      model: "m",
      messages: [
        user,
        { role: "assistant", content: "", tool_calls: [{ function: { name: "clear" } }] },
        { role: "tool", content: "ok" },
      ],
    };
    expect(renderChat(req, { ollamaVersion: "0.13.5" }).text).toContain('{"name": "clear", "arguments": null}');
    expect(renderChat(req, { ollamaVersion: "0.14.0" }).text).toContain('{"name": "clear", "arguments": {}}');
  });
});

describe("bad input", () => {
  it("names the field Ollama would reject", () => {
    const bad = {
      type: "function",
      function: { name: "x", parameters: { type: "object", properties: { a: { description: 5 } } } },
    };
    expect(() => renderChat({ model: "m", messages: [user], tools: [bad] })).toThrow(
      "/tools/0/function/parameters/properties/a/description: expected a string",
    );
    expect(() =>
      renderChat({
        model: "m",
        messages: [
          user,
          { role: "assistant", content: "", tool_calls: [{ function: { name: "x", arguments: "{}" } }] },
        ],
      }),
    ).toThrow("/messages/1/tool_calls/0/function/arguments: expected a JSON object");
  });
});
