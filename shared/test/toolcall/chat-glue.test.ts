import { describe, expect, it } from "vitest";
import { glueChunk, type GluedChunk } from "@hopscope/shared/toolcall/chat-glue";
import { ToolCallParser } from "@hopscope/shared/toolcall/parser";
import { ARTICLE_RAW, TOOLS } from "./tools";

const zero = () => 0;

describe("glueChunk (Ollama's ChatHandler with tools)", () => {
  it("streams prose, swallows the call's text, sends the call once, then a final empty chunk", () => {
    const parser = new ToolCallParser(TOOLS);
    const tokens = [
      "Sure",
      ".",
      " ",
      "<tool_call>",
      "\n",
      '{"name": "append", ',
      '"arguments": {"content": "buy milk"}}',
      "\n",
      "</tool_call>",
    ];
    const sent: GluedChunk[] = tokens.map((t) => glueChunk(parser, t, false, zero)).filter((c) => c.send);
    sent.push(glueChunk(parser, "", true, zero));
    expect(sent).toEqual([
      { send: true, content: "Sure" },
      { send: true, content: "." },
      { send: true, content: " " },
      {
        send: true,
        content: "",
        tool_calls: [
          { id: "call_aaaaaaaa", function: { index: 0, name: "append", arguments: { content: "buy milk" } } },
        ],
      },
      { send: true, content: "" },
    ]);
  });

  it("loses a call that completes in the same chunk as prose", () => {
    const parser = new ToolCallParser(TOOLS);
    expect(glueChunk(parser, `Sure. ${ARTICLE_RAW}`, false)).toEqual({ send: true, content: "Sure. " });
    expect(glueChunk(parser, "", true)).toEqual({ send: true, content: "" });
  });

  it("does not send chunks the parser holds", () => {
    const parser = new ToolCallParser(TOOLS);
    expect(glueChunk(parser, "<tool", false)).toEqual({ send: false });
    expect(glueChunk(parser, "_call>", false)).toEqual({ send: false });
  });
});
