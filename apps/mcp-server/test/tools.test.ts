/**
 * The five notes tools over real HTTP on a temp notes file: results, the article's moment-7 example,
 * tool errors (isError with a fix-it message), newline handling, binary refusal, size limits and
 * 200 concurrent appends.
 */
import { readFile, writeFile } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resultResponseSchema } from "@hopscope/shared/mcp/schemas";
import { CallToolResultSchema } from "@hopscope/shared/mcp/tools";
import { type TestServer, callTool, modern, post, startTestServer, toolText } from "./helpers";

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(() => srv.close());
afterEach(async () => {
  await writeFile(srv.notesFile, "");
});

async function ok(name: string, args?: Record<string, unknown>): Promise<string> {
  const r = await callTool(srv.mcp, name, name, args);
  expect(r.status).toBe(200);
  const body = resultResponseSchema(CallToolResultSchema).parse(r.json);
  expect(body.result.isError).toBe(false);
  return toolText(r);
}

async function toolError(name: string, args?: Record<string, unknown>): Promise<string> {
  const r = await callTool(srv.mcp, 99, name, args);
  expect(r.status).toBe(200);
  expect(r.json.error).toBeUndefined();
  expect(r.json.result.isError).toBe(true);
  expect(r.json.result.resultType).toBe("complete");
  return toolText(r);
}

describe("the article's moment-7 example", () => {
  it("appends buy milk and answers exactly as the article shows", async () => {
    // Body and headers byte for byte from the article (Part 3, moment 7), plus the Content-Type curl is told to send.
    const body =
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"append","arguments":{"content":"buy milk"},' +
      '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}';
    const r = await post(srv.mcp, body, {
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "append",
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe(
      '{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"Success"}],"isError":false,' +
        '"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"hopscope-notes","version":"0.1.0"}}}}',
    );
    expect(await readFile(srv.notesFile, "utf8")).toBe("buy milk\n");
  });
});

describe("tools", () => {
  it("read returns the whole file", async () => {
    await writeFile(srv.notesFile, "one\ntwo\n");
    expect(await ok("read")).toBe("one\ntwo\n");
  });

  it("read of an empty file is empty text", async () => {
    expect(await ok("read")).toBe("");
  });

  it("write replaces everything", async () => {
    await writeFile(srv.notesFile, "old\n");
    expect(await ok("write", { content: "new text" })).toBe("Success");
    expect(await srv.notes()).toBe("new text");
  });

  it("append adds a line; a file without a final newline gets one first", async () => {
    await writeFile(srv.notesFile, "first");
    await ok("append", { content: "second" });
    await ok("append", { content: "third\n" });
    expect(await srv.notes()).toBe("first\nsecond\nthird\n");
  });

  it("append keeps non-ASCII text intact", async () => {
    await ok("append", { content: "café ☕ 𝄞" });
    expect(await ok("read")).toBe("café ☕ 𝄞\n");
  });

  it("update replaces every occurrence", async () => {
    await writeFile(srv.notesFile, "buy milk\nbuy milk again\n");
    expect(await ok("update", { search: "milk", replace: "oat milk" })).toBe("Success");
    expect(await srv.notes()).toBe("buy oat milk\nbuy oat milk again\n");
  });

  it("clear empties the file", async () => {
    await writeFile(srv.notesFile, "a\nb\n");
    expect(await ok("clear")).toBe("Success");
    expect(await srv.notes()).toBe("");
  });
});

describe("tool errors the model can fix", () => {
  it("append without content → Param (content) is required", async () => {
    expect(await toolError("append", {})).toMatch(/^Param \(content\) is required/);
  });

  it("append with no arguments object at all → Param (content) is required", async () => {
    expect(await toolError("append")).toMatch(/^Param \(content\) is required/);
  });

  it("write with a number → must be a string", async () => {
    expect(await toolError("write", { content: 42 })).toMatch(/Param \(content\) must be a string, got number/);
  });

  it("an unexpected argument is named", async () => {
    expect(await toolError("append", { content: "x", priority: "high" })).toMatch(/Unknown param \(priority\)/);
    expect(await toolError("read", { path: "/etc/passwd" })).toMatch(/read takes no arguments/);
    expect(await srv.notes()).toBe("");
  });

  it("update with missing replace → Param (replace) is required", async () => {
    expect(await toolError("update", { search: "x" })).toMatch(/Param \(replace\) is required/);
  });

  it("update whose search text is not in the file says to read first, and changes nothing", async () => {
    await writeFile(srv.notesFile, "buy milk\n");
    const text = await toolError("update", { search: "bread", replace: "butter" });
    expect(text).toMatch(/not found/);
    expect(text).toMatch(/read/);
    expect(await srv.notes()).toBe("buy milk\n");
  });

  it("empty append content is refused", async () => {
    expect(await toolError("append", { content: "" })).toMatch(/Param \(content\) is empty/);
  });
});

describe("binary and non-UTF-8 content", () => {
  it("NUL is refused and nothing is written", async () => {
    await writeFile(srv.notesFile, "keep\n");
    expect(await toolError("write", { content: "a\u0000b" })).toMatch(/NUL/);
    expect(await srv.notes()).toBe("keep\n");
  });

  it("a lone surrogate (JSON \\ud800) is refused and nothing is written", async () => {
    await writeFile(srv.notesFile, "keep\n");
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "append",
        arguments: { content: "x" },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }).replace('"content":"x"', '"content":"bad \\ud800 text"');
    const r = await post(srv.mcp, body, {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "append",
    });
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result.content[0].text).toMatch(/surrogate/);
    expect(await srv.notes()).toBe("keep\n");
  });

  it("a notes file that is not UTF-8 is reported, not returned as garbage", async () => {
    await writeFile(srv.notesFile, new Uint8Array([0x61, 0xff, 0x62]));
    expect(await toolError("read")).toMatch(/not valid UTF-8/);
    expect(await toolError("append", { content: "x" })).toMatch(/not valid UTF-8/);
    expect(new Uint8Array(await readFile(srv.notesFile))).toEqual(new Uint8Array([0x61, 0xff, 0x62]));
    expect(await ok("clear")).toBe("Success");
  });
});

describe("size limits", () => {
  it("the notes file may not grow past 1 MiB, but may still shrink", async () => {
    const big = "n".repeat(1_000_000);
    expect(await ok("write", { content: big })).toBe("Success");
    const refused = await toolError("append", { content: "m".repeat(60_000) });
    expect(refused).toMatch(/over its 1048576-byte limit/);
    expect((await srv.notes()).length).toBe(1_000_000);
    await ok("append", { content: "small" });
    // Grown externally past the cap: growth is refused, shrinking works.
    await writeFile(srv.notesFile, "x".repeat(1_100_000));
    expect(await toolError("append", { content: "more" })).toMatch(/limit/);
    expect(await ok("update", { search: "xxxxxxxxxx", replace: "" })).toBe("Success");
    expect(await srv.notes()).toBe("");
  });

  it("a body over 1 MiB gets 413 and the server keeps serving", async () => {
    const r = await callTool(srv.mcp, 5, "write", { content: "z".repeat(1_100_000) });
    expect(r.status).toBe(413);
    expect(r.json.error.message).toMatch(/Payload Too Large/);
    expect(await srv.notes()).toBe("");
    const after = await modern(srv.mcp, 6, "tools/list");
    expect(after.status).toBe(200);
  });

  it("a chunked body over the limit (no Content-Length) also gets 413", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(srv.mcp, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    await res.text();
    expect((await modern(srv.mcp, 8, "tools/list")).status).toBe(200);
  });
});

describe("concurrency", () => {
  it("200 parallel appends leave exactly 200 lines", async () => {
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) => callTool(srv.mcp, i, "append", { content: `note ${i}` })),
    );
    for (const r of replies) expect(r.json.result.isError).toBe(false);
    const lines = (await srv.notes()).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(200);
    expect(new Set(lines)).toEqual(new Set(Array.from({ length: 200 }, (_, i) => `note ${i}`)));
  });
});
