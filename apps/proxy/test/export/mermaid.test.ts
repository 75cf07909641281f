import { describe, expect, it } from "vitest";
import { exportMermaid, mermaidLabel } from "../../src/main/export/mermaid";
import { faultBundle } from "./fault-fixture";
import { part4Bundle } from "./part4-fixture";

const ARROW = /^ {2}(You|Host|Model|MCP)(->>|-->>|--x)(You|Host|Model|MCP): (.*)$/;

function arrows(text: string) {
  return text
    .split("\n")
    .filter((l) => ARROW.test(l))
    .map((l) => {
      const [, from, arrow, to, label] = ARROW.exec(l)!;
      return { from, arrow, to, label: label! };
    });
}

describe("exportMermaid", () => {
  it("draws the Part 4 trace hop by hop, numbered as in the article", () => {
    const text = exportMermaid(part4Bundle());
    expect(text.split("\n").slice(0, 5)).toEqual([
      "sequenceDiagram",
      "  participant You",
      "  participant Host",
      "  participant Model as Model server",
      "  participant MCP as MCP server",
    ]);
    expect(arrows(text).map((a) => `${a.from}${a.arrow}${a.to}: ${a.label}`)).toEqual([
      "You->>Host: 1. POST /agent: Add buy milk to my notes",
      "Host->>MCP: 2. tools/list",
      "MCP-->>Host: 5 tools",
      "Host->>Model: 3. POST /api/chat (1 msg, 5 tools)",
      "Model-->>Host: 4. tool_calls: append{content}",
      "Host->>MCP: 5. tools/call append",
      "MCP-->>Host: result: Success",
      "Host->>Model: 6. POST /api/chat (3 msgs, 5 tools)",
      "Model-->>Host: 7. content: I've added #quot;buy milk#quot; to your notes.",
      "Host-->>You: 8. reply: I've added #quot;buy milk#quot; to your notes.",
    ]);
    // Every line is a statement Mermaid knows; nothing else sneaks in.
    expect(text.trimEnd().split("\n")).toHaveLength(5 + 10);
  });

  it("numbers arrows in increasing order", () => {
    const numbers = arrows(exportMermaid(part4Bundle()))
      .map((a) => /^(\d+)\. /.exec(a.label)?.[1])
      .filter((n) => n !== undefined)
      .map(Number);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("ends failed responses in a cross and says why", () => {
    const a = arrows(exportMermaid(faultBundle()));
    expect(a.filter((x) => x.arrow === "--x").map((x) => x.label)).toEqual([
      "isError: Param (content) is required",
      "error -32602: Unknown tool: delete#35;all#59;now",
      "4. 502: upstream http://127.0.0.1:11435 is not reachable (E…",
      "8. aborted: client closed the connection mid-stream",
    ]);
    expect(a.filter((x) => x.arrow === "-->>").map((x) => x.label)).toEqual(["6. 201"]);
  });

  it("keeps hostile recorded text from breaking the diagram", () => {
    const bundle = part4Bundle();
    const agent = bundle.exchanges[0]!;
    bundle.exchanges[0] = {
      ...agent,
      classification: { kind: "agent", message: 'x;\nparticipant Evil\n%% <b>#1</b> & "q"', reply: "ok" },
    };
    const text = exportMermaid(bundle);
    expect(text).not.toContain("participant Evil\n");
    expect(text.trimEnd().split("\n")).toHaveLength(15);
    for (const { label } of arrows(text)) {
      // Outside entity codes (#name; / #123;) no `#`, `;`, `<`, `>` or `"` remains.
      expect(label.replace(/#[a-z0-9]+;/g, "")).not.toMatch(/[#;<>"]/);
    }
    expect(arrows(text)[0]!.label).toBe(
      "1. POST /agent: x#59; participant Evil %% #lt;b#gt;#35;1#lt;/b#gt; #amp; #quot;q#quot;",
    );
  });

  it("shortens long labels", () => {
    expect(mermaidLabel("a".repeat(100))).toBe(`${"a".repeat(59)}…`);
  });

  it("draws no response for an exchange still in flight", () => {
    const bundle = part4Bundle();
    const last = bundle.exchanges[4]!;
    bundle.exchanges[4] = { ...last, state: "streaming", timings: { ...last.timings, end: null } };
    const a = arrows(exportMermaid(bundle));
    expect(a.map((x) => x.label)).not.toContain("7. content: I've added #quot;buy milk#quot; to your notes.");
    expect(a.filter((x) => x.to === "Model")).toHaveLength(2);
    expect(a.filter((x) => x.from === "Model")).toHaveLength(1);
  });
});
