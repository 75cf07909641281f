/** Pure header and URL handling of the taps: hop-by-hop removal and redaction. */
import { describe, expect, it } from "vitest";
import { forwardHeaders, setFlatHeader } from "../src/tap/hop-headers";
import {
  blockHeaderValue,
  fromHeaderBlock,
  redactHeaderBlock,
  toHeaderBlock,
} from "@hopscope/shared/trace/header-block";
import { headerValue } from "@hopscope/shared/trace/json-text";
import { REDACTED, redactHeaders, redactUrl } from "@hopscope/shared/trace/redact";

describe("hop-by-hop headers", () => {
  it("drops the RFC 9110 hop-by-hop fields and any named in Connection, keeping order and case", () => {
    const h: [string, string][] = [
      ["Host", "a"],
      ["Connection", "keep-alive, X-Hop"],
      ["Keep-Alive", "timeout=5"],
      ["X-Hop", "1"],
      ["Transfer-Encoding", "chunked"],
      ["TE", "trailers"],
      ["Upgrade", "h2c"],
      ["Proxy-Authorization", "Basic x"],
      ["Trailer", "X"],
      ["Content-Type", "application/json"],
      ["X-Keep", "2"],
    ];
    expect(forwardHeaders(h.flat())).toEqual(["Host", "a", "Content-Type", "application/json", "X-Keep", "2"]);
    // Host rewritten to the upstream's; a chunked body forwarded as is keeps its Transfer-Encoding.
    expect(forwardHeaders(h.flat(), "127.0.0.1:8080", true)).toEqual([
      "Host",
      "127.0.0.1:8080",
      "Transfer-Encoding",
      "chunked",
      "Content-Type",
      "application/json",
      "X-Keep",
      "2",
    ]);
    expect(forwardHeaders(["Accept", "*/*"], "u:1")).toEqual(["Accept", "*/*", "Host", "u:1"]);
    const flat = ["host", "a"];
    setFlatHeader(flat, "Host", "b");
    expect(flat).toEqual(["host", "b"]);
  });
});

describe("redaction", () => {
  it("hides credential headers and keeps the rest", () => {
    expect(
      redactHeaders([
        ["Authorization", "Bearer x"],
        ["Cookie", "a=b"],
        ["X-Api-Key", "k"],
        ["OpenAI-Api-Key", "k"],
        ["X-Auth-Token", "t"],
        ["Mcp-Session-Id", "s"],
        ["Content-Type", "application/json"],
      ]),
    ).toEqual([
      ["Authorization", REDACTED],
      ["Cookie", REDACTED],
      ["X-Api-Key", REDACTED],
      ["OpenAI-Api-Key", REDACTED],
      ["X-Auth-Token", REDACTED],
      ["Mcp-Session-Id", "s"],
      ["Content-Type", "application/json"],
    ]);
  });

  it("hides secret query parameters byte for byte otherwise", () => {
    expect(redactUrl("/api/chat?key=abc&model=qwen&access_token=t&x")).toBe(
      `/api/chat?key=${REDACTED}&model=qwen&access_token=${REDACTED}&x`,
    );
    expect(redactUrl("/p?API_KEY=1#frag")).toBe(`/p?API_KEY=${REDACTED}#frag`);
    expect(redactUrl("/p?%ZZ=1&q=%20")).toBe("/p?%ZZ=1&q=%20");
    expect(redactUrl("/plain")).toBe("/plain");
  });
});

describe("header blocks (headers as tap events carry them across threads)", () => {
  it("round-trips names, order, repeats, empty values, colons in values and latin1 bytes", () => {
    const flat = [
      "Host",
      "a:1",
      "X-Empty",
      "",
      "Set-Cookie",
      "a=1; Path=/",
      "set-cookie",
      "b=2",
      "X-Url",
      "http://x:8/y?z=1: two",
      "X-Bytes",
      "caf\u00e9\u00ff",
    ];
    const block = toHeaderBlock(flat);
    expect(block).toBe(
      "Host: a:1\r\nX-Empty: \r\nSet-Cookie: a=1; Path=/\r\nset-cookie: b=2\r\nX-Url: http://x:8/y?z=1: two\r\nX-Bytes: caf\u00e9\u00ff\r\n",
    );
    expect(fromHeaderBlock(block)).toEqual(flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1]]] : [])));
    expect(fromHeaderBlock(toHeaderBlock([]))).toEqual([]);
  });
});

describe("header blocks as the recorder reads and stores them", () => {
  const block = toHeaderBlock([
    "Host",
    "a:1",
    "content-type",
    "application/json",
    "Content-Type-X",
    "no",
    "Date",
    "Tue, 01 Dec 2026 15:00:00 GMT",
    "X-Empty",
    "",
    "Content-Type",
    "second",
  ]);

  it("reads a value by case-insensitive name, the first of repeats, without matching a longer name", () => {
    expect(blockHeaderValue(block, "Content-Type")).toBe("application/json");
    expect(blockHeaderValue(block, "DATE")).toBe("Tue, 01 Dec 2026 15:00:00 GMT");
    expect(blockHeaderValue(block, "x-empty")).toBe("");
    expect(blockHeaderValue(block, "content-type-x")).toBe("no");
    expect(blockHeaderValue(block, "content")).toBeUndefined();
    expect(blockHeaderValue("", "host")).toBeUndefined();
    // The one lookup for pairs and blocks gives the same answers.
    for (const name of ["host", "CONTENT-TYPE", "content-type-x", "x-empty", "nope"])
      expect(headerValue(block, name)).toBe(headerValue(fromHeaderBlock(block), name));
  });

  it("redacts a block exactly as redactHeaders redacts its pairs, and returns it unchanged when nothing is secret", () => {
    const names = [
      "Authorization",
      "Proxy-Authorization",
      "Cookie",
      "Set-Cookie",
      "X-Auth-Key",
      "X-Api-Key",
      "Api-Key",
      "OpenAI-Api-Key",
      "X-Auth-Token",
      "X-Amz-Security-Token",
      "Mcp-Session-Id",
      "WWW-Authenticate",
      "Authority",
      "X-Secret",
      "Password",
      "Accept",
      "User-Agent",
      "Keyboard",
      "Monkey",
    ];
    const flat = names.flatMap((n, i) => [n, `value ${i}: token`]);
    const secret = toHeaderBlock(flat);
    expect(fromHeaderBlock(redactHeaderBlock(secret))).toEqual(redactHeaders(fromHeaderBlock(secret)));
    expect(redactHeaderBlock(secret)).toContain(`X-Auth-Key: ${REDACTED}\r\n`);
    expect(redactHeaderBlock(secret)).toContain("Mcp-Session-Id: value 10: token\r\n");
    const plain = toHeaderBlock([
      "Host",
      "127.0.0.1:1",
      "Accept",
      "application/json, text/event-stream",
      "Content-Length",
      "12",
    ]);
    expect(redactHeaderBlock(plain)).toBe(plain);
  });
});

describe("header blocks read back from storage", () => {
  it("end without their last CRLF and with a line that has no ': ' rather than looping", () => {
    expect(fromHeaderBlock("A: 1\r\nB: 2")).toEqual([
      ["A", "1"],
      ["B", "2"],
    ]);
    expect(fromHeaderBlock("Odd\r\nC: 3\r\n")).toEqual([
      ["Odd", ""],
      ["C", "3"],
    ]);
    expect(blockHeaderValue("A: 1\r\nB: 2", "b")).toBe("2");
  });
});
