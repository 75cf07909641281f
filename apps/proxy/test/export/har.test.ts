import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { exportHar, importHar } from "../../src/main/export/har";
import { HarSchema } from "../../src/main/export/har-schema";
import { TraceImportError } from "../../src/main/export/import-error";
import { guessTap } from "../../src/main/export/tap-guess";
import { FAULT_TRACE_ID, faultBundle } from "./fault-fixture";
import { chromeHar } from "./chrome-har";
import { TRACE_ID } from "./fixtures";
import { part4Bundle } from "./part4-fixture";

type Json = Record<string, any>;

function importError(text: string): string {
  try {
    importHar(text);
  } catch (err) {
    expect(err).toBeInstanceOf(TraceImportError);
    return (err as Error).message;
  }
  throw new Error("expected importHar to throw");
}

/** Our HAR with every `_hopscope` field removed: what another tool would make of the same traffic. */
function withoutHopscope(text: string): Json {
  const har = JSON.parse(text);
  delete har.log.pages[0]._hopscope;
  for (const e of har.log.entries) delete e._hopscope;
  return har;
}

describe("exportHar", () => {
  for (const [name, make] of [
    ["Part 4", part4Bundle],
    ["faults", faultBundle],
  ] as const) {
    it(`writes valid HAR 1.2 for the ${name} trace`, () => {
      const har = HarSchema.parse(JSON.parse(exportHar(make())));
      expect(har.log.version).toBe("1.2");
      expect(har.log.creator.name).toBe("hopscope");
      for (const e of har.log.entries) {
        expect(e.time).toBeCloseTo(e.timings.send + e.timings.wait + e.timings.receive, 6);
      }
    });
  }

  it("maps a model exchange: absolute URL, headers in order, postData, content, timings", () => {
    const bundle = part4Bundle();
    const har = JSON.parse(exportHar(bundle));
    const ex = bundle.exchanges[2]!;
    const e = har.log.entries[2];
    expect(har.log.pages).toEqual([expect.objectContaining({ id: TRACE_ID, title: "Add buy milk to my notes" })]);
    expect(e.pageref).toBe(TRACE_ID);
    expect(e.startedDateTime).toBe(new Date(ex.timings.start).toISOString());
    expect(e.request.url).toBe("http://127.0.0.1:11435/api/chat");
    expect(e.request.headers).toEqual(ex.requestHeaders.map(([name, value]) => ({ name, value })));
    expect(e.request.postData).toEqual({ mimeType: "application/json", text: ex.requestBody!.data });
    expect(e.request.bodySize).toBe(ex.requestBody!.size);
    expect(e.response).toMatchObject({
      status: 200,
      statusText: "OK",
      content: { size: ex.responseBody!.size, mimeType: "application/json", text: ex.responseBody!.data },
    });
    expect(e.response.content.encoding).toBeUndefined();
    expect(e.timings.send).toBeCloseTo(ex.timings.requestEnd! - ex.timings.start, 6);
    expect(e.timings.wait).toBeCloseTo(ex.timings.firstByte! - ex.timings.requestEnd!, 6);
    expect(e.timings.receive).toBeCloseTo(ex.timings.end! - ex.timings.firstByte!, 6);
    expect(e.timings).toMatchObject({ blocked: -1, dns: -1, connect: -1, ssl: -1 });
  });

  it("writes a binary request body as base64 marked _encoding, and keeps the query string", () => {
    const har = JSON.parse(exportHar(faultBundle()));
    const e = har.log.entries[3];
    expect(e.request.postData).toEqual({
      mimeType: "application/octet-stream",
      text: faultBundle().exchanges[3]!.requestBody!.data,
      _encoding: "base64",
    });
    expect(e.request.queryString).toEqual([{ name: "digest", value: "1" }]);
    expect(e.request.url).toBe("http://127.0.0.1:11435/api/blobs/sha256:abc?digest=1");
  });

  it("writes a base64 response with HAR's content.encoding", () => {
    const bundle = part4Bundle();
    bundle.exchanges[0]!.responseBody = { encoding: "base64", data: "/+4A", size: 3, storedSize: 3, truncated: false };
    const e = JSON.parse(exportHar(bundle)).log.entries[0];
    expect(e.response.content).toMatchObject({ size: 3, text: "/+4A", encoding: "base64" });
  });
});

describe("truncated bodies", () => {
  it("are exported with what was kept, the full size and a note, and restored as truncated", () => {
    const bundle = part4Bundle();
    const list = bundle.exchanges[1]!;
    const kept = list.responseBody!.data.slice(0, 100);
    bundle.exchanges[1] = {
      ...list,
      responseBody: { ...list.responseBody!, data: kept, storedSize: 100, truncated: true },
    };
    const har = JSON.parse(exportHar(bundle));
    expect(har.log.entries[1].response.content).toMatchObject({
      size: list.responseBody!.size,
      text: kept,
      comment: `truncated: only the first 100 of ${list.responseBody!.size} bytes were recorded`,
    });
    expect(importHar(JSON.stringify(har))).toEqual(bundle);
  });
});

describe("importHar", () => {
  it("restores our own HAR exactly (Part 4)", () => {
    const bundle = part4Bundle();
    expect(importHar(exportHar(bundle))).toEqual(bundle);
  });

  it("restores our own HAR exactly (failures, binary bodies, no status)", () => {
    const bundle = faultBundle();
    bundle.exchanges[2] = {
      ...bundle.exchanges[2]!,
      status: null,
      responseHeaders: [],
      responseBody: null,
      chunks: [],
      chunkCount: 0,
      responseSize: 0,
    };
    bundle.trace.exchanges[2] = { ...bundle.trace.exchanges[2]!, status: null, chunkCount: 0, responseSize: 0 };
    const har = JSON.parse(exportHar(bundle));
    expect(har.log.entries[2].response).toMatchObject({ status: 0, statusText: "", bodySize: -1 });
    expect(importHar(JSON.stringify(har))).toEqual(bundle);
  });

  it("rebuilds the same exchanges from a HAR without hopscope's fields, and relinks them", () => {
    const bundle = part4Bundle();
    const imported = importHar(JSON.stringify(withoutHopscope(exportHar(bundle))));
    expect(imported.trace.id).toBe(TRACE_ID);
    expect(imported.trace.groupedBy).toBe("traceparent");
    expect(imported.trace.source).toBe("imported");
    expect(imported.trace.name).toBe("Add buy milk to my notes");
    expect(imported.exchanges.map((e) => [e.tap, e.method, e.url, e.upstream, e.status])).toEqual(
      bundle.exchanges.map((e) => [e.tap, e.method, e.url, e.upstream, e.status]),
    );
    expect(imported.exchanges.map((e) => [e.requestHeaders, e.responseHeaders, e.requestBody, e.responseBody])).toEqual(
      bundle.exchanges.map((e) => [e.requestHeaders, e.responseHeaders, e.requestBody, e.responseBody]),
    );
    expect(imported.exchanges.map((e) => e.classification.kind)).toEqual([
      "agent",
      "mcp",
      "model.chat",
      "mcp",
      "model.chat",
    ]);
    const byId = (id: number) => bundle.exchanges.findIndex((e) => e.id === id) + 1;
    expect(imported.trace.links).toEqual(bundle.trace.links.map((l) => ({ ...l, from: byId(l.from), to: byId(l.to) })));
    expect(imported.trace.simulated).toBe(true);
  });

  it("keeps binary request bodies byte for byte without hopscope's fields", () => {
    const bundle = faultBundle();
    const imported = importHar(JSON.stringify(withoutHopscope(exportHar(bundle))));
    expect(imported.trace.id).toBe(imported.trace.id.match(/^[0-9a-f]{32}$/)?.[0]);
    expect(imported.trace.id).not.toBe(FAULT_TRACE_ID);
    expect(imported.exchanges[3]!.requestBody).toEqual(bundle.exchanges[3]!.requestBody);
    expect(imported.exchanges.map((e) => e.classification.kind === "mcp" && e.classification.outcome)).toEqual([
      "tool-error",
      "protocol-error",
      false,
      false,
      false,
    ]);
  });

  it("imports a HAR saved by a browser's dev tools", () => {
    const bundle = importHar(JSON.stringify(chromeHar()));
    expect(bundle.generator).toEqual({ name: "WebInspector", version: "537.36" });
    expect(bundle.trace).toMatchObject({
      source: "imported",
      groupedBy: "single",
      exchangeCount: 5,
      errorCount: 1,
      simulated: false,
    });
    const [chat, png, mcp, form, big] = bundle.exchanges;
    expect(bundle.exchanges.map((e) => [e.id, e.seq, e.tap])).toEqual([
      [1, 1, "model"],
      [2, 2, "agent"],
      [3, 3, "mcp"],
      [4, 4, "agent"],
      [5, 5, "agent"],
    ]);
    expect(chat).toMatchObject({
      method: "POST",
      url: "/api/chat?debug=1",
      upstream: "http://127.0.0.1:11434",
      status: 200,
      state: "complete",
    });
    expect(chat!.classification).toMatchObject({
      kind: "model.chat",
      model: "qwen2.5:7b",
      messageCount: 1,
      content: "Hello!",
    });
    expect(chat!.requestHeaders[0]).toEqual([":authority", "127.0.0.1:11434"]);
    const start = Date.parse("2026-11-29T20:00:01.000Z");
    expect(chat!.timings).toEqual({ start, requestEnd: start + 0.7, firstByte: start + 838.7, end: start + 840.7 });
    expect(png!.responseBody).toMatchObject({ encoding: "base64", size: 10, truncated: false });
    expect(Buffer.from(png!.responseBody!.data, "base64")[0]).toBe(0x89);
    expect(png!.classification).toEqual({ kind: "other" });
    expect(mcp).toMatchObject({
      status: null,
      state: "error",
      error: "net::ERR_CONNECTION_REFUSED",
      responseBody: null,
    });
    expect(mcp!.timings.firstByte).toBeNull();
    expect(form!.requestBody).toMatchObject({ encoding: "utf8", data: "user=ann&note=a%26b" });
    expect(form!.responseBody).toBeNull();
    expect(big!.responseBody).toEqual({
      encoding: "utf8",
      data: "",
      size: 5_000_000,
      storedSize: 0,
      truncated: true,
      contentType: "text/javascript",
    });
  });

  it("gives the same trace id for the same file", () => {
    const text = JSON.stringify(chromeHar());
    expect(importHar(text).trace.id).toBe(importHar(text).trace.id);
  });

  it("says when the file is not JSON", () => {
    expect(importError("<html>")).toMatch(/^not a HAR file: the file is not valid JSON \(/);
  });

  it("says when the file has no log", () => {
    expect(importError(JSON.stringify({ format: "hopscope-trace" }))).toBe(
      'not a HAR file: expected a JSON object with a "log" property (HAR 1.2, as saved by a browser\'s dev tools)',
    );
  });

  it("says when there is nothing to import", () => {
    expect(importError(JSON.stringify({ log: { version: "1.2", entries: [] } }))).toBe(
      "log.entries: the HAR file has no requests to import",
    );
  });

  it("names the entry and field that is wrong", () => {
    const har = chromeHar();
    har.log.entries[2].request.url = "not a url";
    delete har.log.entries[4].startedDateTime;
    expect(importError(JSON.stringify(har)).split("\n")).toEqual([
      "invalid HAR file:",
      'log.entries[2].request.url: expected an absolute URL, got "not a url"',
      "log.entries[4].startedDateTime: required string is missing",
    ]);
  });

  it("names a broken _hopscope field in our own HAR", () => {
    const har = JSON.parse(exportHar(part4Bundle()));
    har.log.entries[1]._hopscope.exchange.tap = "browser";
    expect(importError(JSON.stringify(har))).toBe(
      'invalid HAR file:\nlog.entries[1]._hopscope.exchange.tap: expected one of "agent", "model", "mcp", got "browser"',
    );
  });
});

describe("guessTap", () => {
  it.each([
    ["/api/chat", [], "model"],
    ["/api/generate", [], "model"],
    ["/api/tags", [], "model"],
    ["/v1/chat/completions", [], "model"],
    ["/mcp", [], "mcp"],
    ["/servers/notes/mcp/", [], "mcp"],
    ["/rpc", [["MCP-Protocol-Version", "2026-07-28"]], "mcp"],
    ["/agent", [], "agent"],
    ["/api/login", [], "agent"],
    ["/", [], "agent"],
  ] as const)("%s %j → %s", (path, headers, tap) => {
    expect(
      guessTap(
        path,
        headers.map(([k, v]) => [k, v] as [string, string]),
      ),
    ).toBe(tap);
  });
});
