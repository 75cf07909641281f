import { describe, expect, it } from "vitest";
import type { NotesChange } from "@hopscope/shared/trace/notes-file";
import {
  alongThePath,
  buildFollowIndex,
  findOccurrences,
  inToolDefinition,
  notesFollowDocs,
  type FollowSide,
} from "../src/models/follow-index";

const docs = [
  { exchangeId: 1, side: "request" as const, text: JSON.stringify({ message: "Add buy milk to my notes" }) },
  {
    exchangeId: 3,
    side: "request" as const,
    text: JSON.stringify({ messages: [{ role: "user", content: "Add buy milk to my notes" }] }),
  },
  {
    exchangeId: 3,
    side: "response" as const,
    text: '{"message":{"content":"","tool_calls":[{"function":{"name":"append","arguments":{"content":"buy milk"}}}]}}\n{"done":true}\n',
  },
  { exchangeId: 3, side: "prompt" as const, text: "<|im_start|>user\nAdd buy milk to my notes<|im_end|>", plain: true },
  {
    exchangeId: 5,
    side: "response" as const,
    text: 'event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Success"}]}}\n\n',
  },
  { exchangeId: 6, side: "request" as const, text: "not json, mentions BUY MILK loudly" },
];

describe("follow the data", () => {
  const index = buildFollowIndex(docs);

  it("finds a value in every hop it travels through, with JSON pointers", () => {
    const found = findOccurrences(index, "buy milk");
    expect(found.map((o) => [o.exchangeId, o.side, o.path])).toEqual([
      [1, "request", "/message"],
      [3, "request", "/messages/0/content"],
      [3, "response", "/0/message/tool_calls/0/function/arguments/content"],
      [3, "prompt", ""],
      [6, "request", ""],
    ]);
    expect([...new Set(found.map((o) => o.exchangeId))]).toEqual([1, 3, 6]);
  });

  it("reads SSE events and keeps the matched text's case in the snippet", () => {
    const found = findOccurrences(index, "success");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      exchangeId: 5,
      path: "/result/content/0/text",
      match: "Success",
      before: "",
      after: "",
    });
    const loud = findOccurrences(index, "buy milk").find((o) => o.exchangeId === 6);
    expect(loud?.match).toBe("BUY MILK");
  });

  it("finds nothing for an empty or absent needle", () => {
    expect(findOccurrences(index, "   ")).toEqual([]);
    expect(findOccurrences(index, "oat milk")).toEqual([]);
  });

  it("escapes JSON pointer keys", () => {
    const idx = buildFollowIndex([{ exchangeId: 9, side: "request", text: JSON.stringify({ "a/b": { "c~d": "x" } }) }]);
    expect(findOccurrences(idx, "x")[0]!.path).toBe("/a~1b/c~0d");
  });
});

describe("follow the data in the rendered prompt", () => {
  it("reports each match in a plain text and the request field it came from", () => {
    const text = '{"description":"e.g. buy milk"}\n<|im_start|>user\nAdd buy milk<|im_end|>';
    const userAt = text.indexOf("Add buy milk");
    const idx = buildFollowIndex([
      {
        exchangeId: 3,
        side: "prompt",
        text,
        plain: true,
        segments: [
          { start: 0, end: 31, path: "/tools/0" },
          { start: userAt, end: userAt + 12, path: "/messages/0/content" },
        ],
      },
    ]);
    const found = findOccurrences(idx, "buy milk");
    expect(found.map((o) => o.origin)).toEqual(["/tools/0", "/messages/0/content"]);
    expect(found[1]!.match).toBe("buy milk");
    expect(found[1]!.before.endsWith("<|im_start|>user\nAdd ")).toBe(true);
  });
});

describe("follow the data along its path", () => {
  const o = (hop: number, side: FollowSide, path: string, origin?: string) => ({
    exchangeId: hop,
    side,
    path,
    value: "",
    before: "",
    match: "buy milk",
    after: "",
    hop,
    ...(origin ? { origin } : {}),
  });

  it("orders matches by hop, then as the data travels inside a hop, and sets tool definitions apart", () => {
    const found = [
      o(8, "response", "/reply"),
      o(3, "prompt", "", "/messages/0/content"),
      o(3, "request", "/messages/0/content"),
      o(3, "request", "/tools/2/function/parameters/properties/content/description"),
      o(3, "prompt", "", "/tools/2/function"),
      o(2, "response", "/result/tools/2/inputSchema/properties/content/description"),
      o(4, "response", "/message/tool_calls/0/function/arguments/content"),
      o(4, "raw-output", ""),
      o(1, "request", "/message"),
      o(5, "request", "/params/arguments/content"),
    ];
    const { path, toolDefinitions } = alongThePath(found);
    expect(path.map((x) => `${x.hop}:${x.side}`)).toEqual([
      "1:request",
      "3:request",
      "3:prompt",
      "4:raw-output",
      "4:response",
      "5:request",
      "8:response",
    ]);
    expect(toolDefinitions.map((x) => `${x.hop}:${x.side}`)).toEqual(["2:response", "3:request", "3:prompt"]);
    expect(inToolDefinition({ side: "response", path: "/0/result/tools/1/description" })).toBe(true);
    expect(inToolDefinition({ side: "request", path: "/messages/0/content" })).toBe(false);
  });
});

describe("follow the data into the notes file", () => {
  const text = (data: string) => ({
    encoding: "utf8" as const,
    data,
    size: data.length,
    storedSize: data.length,
    truncated: false,
  });
  const change = (id: number, exchangeId: number | null, before: string, after: string): NotesChange => ({
    id,
    at: id,
    file: "data/db",
    event: "changed",
    before: text(before),
    after: text(after),
    size: after.length,
    cause: exchangeId === null ? { kind: "none" } : { kind: "tool-call", traceId: "t", exchangeId, toolName: "append" },
    traceId: exchangeId === null ? null : "t",
  });
  const hopOf: Record<number, number> = { 1: 1, 3: 3, 5: 5, 7: 7 };
  const along = (docs: Parameters<typeof buildFollowIndex>[0], needle: string) =>
    alongThePath(
      findOccurrences(buildFollowIndex(docs), needle).map((o) => ({ ...o, hop: hopOf[o.exchangeId] ?? 0 })),
    ).path.map((x) => `${x.hop}:${x.side}${x.side === "notes" ? x.path : ""}`);

  it("places the file's change right after the MCP request that made it, before the tool result", () => {
    const docs = [
      {
        exchangeId: 5,
        side: "response" as const,
        text: JSON.stringify({ result: { content: [{ type: "text", text: "Appended: buy milk" }] } }),
      },
      {
        exchangeId: 5,
        side: "request" as const,
        text: JSON.stringify({ method: "tools/call", params: { arguments: { content: "buy milk" } } }),
      },
      { exchangeId: 1, side: "request" as const, text: JSON.stringify({ message: "Add buy milk" }) },
      ...notesFollowDocs([
        change(1, 5, "call the dentist\n", "call the dentist\nbuy milk\n"),
        change(2, null, "", "buy milk by hand\n"),
      ]),
    ];
    // The value was already absent before: only the after-text matches; the hand edit (no tool call) is not a step.
    expect(along(docs, "buy milk")).toEqual(["1:request", "5:request", "5:notes/after", "5:response"]);
  });

  it("lists a value the call removed from the file, and not a value the file kept", () => {
    const removed = notesFollowDocs([change(1, 7, "call the dentist\nbuy milk\n", "call the dentist\n")]);
    expect(along(removed, "buy milk")).toEqual(["7:notes/before"]);
    expect(along(removed, "dentist")).toEqual(["7:notes/after"]);
  });
});
