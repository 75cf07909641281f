/** Pure header and URL handling of the taps: hop-by-hop removal and redaction. */
import { describe, expect, it } from "vitest";
import { forwardHeaders, setFlatHeader } from "../src/tap/hop-headers";
import { fromHeaderBlock, toHeaderBlock } from "../src/recording/header-block";
import { REDACTED, redactHeaders, redactUrl } from "../src/tap/redact";

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
    expect(forwardHeaders(h.flat(), "127.0.0.1:8080", true)).toEqual(["Host", "127.0.0.1:8080", "Transfer-Encoding", "chunked", "Content-Type", "application/json", "X-Keep", "2"]);
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
    expect(redactUrl("/api/chat?key=abc&model=qwen&access_token=t&x")).toBe(`/api/chat?key=${REDACTED}&model=qwen&access_token=${REDACTED}&x`);
    expect(redactUrl("/p?API_KEY=1#frag")).toBe(`/p?API_KEY=${REDACTED}#frag`);
    expect(redactUrl("/p?%ZZ=1&q=%20")).toBe("/p?%ZZ=1&q=%20");
    expect(redactUrl("/plain")).toBe("/plain");
  });
});

describe("header blocks (headers as tap events carry them across threads)", () => {
  it("round-trips names, order, repeats, empty values, colons in values and latin1 bytes", () => {
    const flat = ["Host", "a:1", "X-Empty", "", "Set-Cookie", "a=1; Path=/", "set-cookie", "b=2", "X-Url", "http://x:8/y?z=1: two", "X-Bytes", "caf\u00e9\u00ff"];
    const block = toHeaderBlock(flat);
    expect(block).toBe("Host: a:1\r\nX-Empty: \r\nSet-Cookie: a=1; Path=/\r\nset-cookie: b=2\r\nX-Url: http://x:8/y?z=1: two\r\nX-Bytes: caf\u00e9\u00ff\r\n");
    expect(fromHeaderBlock(block)).toEqual(flat.flatMap((v, i) => (i % 2 === 0 ? [[v, flat[i + 1]]] : [])));
    expect(fromHeaderBlock(toHeaderBlock([]))).toEqual([]);
  });
});
