/** A HAR shaped as Chromium's dev tools save one, for the import tests. */
import { Buffer } from "node:buffer";

type Json = Record<string, any>;

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const base = {
  cache: {},
  _priority: "High",
  _resourceType: "fetch",
  serverIPAddress: "127.0.0.1",
  connection: "1234",
};

/** A HAR as Chromium's dev tools save it: pseudo-headers, `_`-fields, a failed request, an image without text. */
export function chromeHar(): Json {
  return {
    log: {
      version: "1.2",
      creator: { name: "WebInspector", version: "537.36" },
      pages: [
        {
          startedDateTime: "2026-11-29T20:00:00.000Z",
          id: "page_1",
          title: "http://127.0.0.1:7070/",
          pageTimings: { onContentLoad: 120.5, onLoad: 180.2 },
        },
      ],
      entries: [logoPngEntry(), chatEntry(), mcpEntry(), loginEntry(), bigJsEntry()],
    },
  };
}

function logoPngEntry(): Json {
  return {
    ...base,
    pageref: "page_1",
    startedDateTime: "2026-11-29T20:00:01.500Z",
    time: 12.5,
    request: {
      method: "GET",
      url: "http://127.0.0.1:7070/logo.png",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "Accept", value: "image/avif,image/webp,*/*" }],
      queryString: [],
      headersSize: 310,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "Content-Type", value: "image/png" }],
      content: { size: png.length, mimeType: "image/png", text: png.toString("base64"), encoding: "base64" },
      redirectURL: "",
      headersSize: 120,
      bodySize: png.length,
      _transferSize: 130,
    },
    timings: {
      blocked: 1.2,
      dns: -1,
      ssl: -1,
      connect: -1,
      send: 0.3,
      wait: 9,
      receive: 2,
      _blocked_queueing: 0.8,
    },
  };
}

function chatEntry(): Json {
  return {
    ...base,
    startedDateTime: "2026-11-29T20:00:01.000Z",
    time: 840.7,
    request: {
      method: "POST",
      url: "http://127.0.0.1:11434/api/chat?debug=1",
      httpVersion: "http/2.0",
      cookies: [],
      headers: [
        { name: ":authority", value: "127.0.0.1:11434" },
        { name: "content-type", value: "application/json" },
      ],
      queryString: [{ name: "debug", value: "1" }],
      postData: {
        mimeType: "application/json",
        text: JSON.stringify({ model: "qwen2.5:7b", messages: [{ role: "user", content: "hi" }], stream: false }),
      },
      headersSize: -1,
      bodySize: 90,
    },
    response: {
      status: 200,
      statusText: "",
      httpVersion: "http/2.0",
      cookies: [],
      headers: [{ name: "content-type", value: "application/json; charset=utf-8" }],
      content: {
        size: 80,
        mimeType: "application/json",
        text: JSON.stringify({
          model: "qwen2.5:7b",
          message: { role: "assistant", content: "Hello!" },
          done: true,
          done_reason: "stop",
        }),
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    },
    timings: { blocked: 0.5, dns: -1, ssl: -1, connect: -1, send: 0.2, wait: 838, receive: 2 },
  };
}

function mcpEntry(): Json {
  return {
    ...base,
    startedDateTime: "2026-11-29T20:00:02.000Z",
    time: 3,
    request: {
      method: "POST",
      url: "http://127.0.0.1:8080/mcp",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "Mcp-Method", value: "tools/list" }],
      queryString: [],
      postData: { mimeType: "application/json", text: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' },
      headersSize: -1,
      bodySize: 47,
    },
    response: {
      status: 0,
      statusText: "",
      httpVersion: "",
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: "x-unknown" },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
      _error: "net::ERR_CONNECTION_REFUSED",
    },
    timings: { blocked: 3, dns: -1, ssl: -1, connect: -1, send: 0, wait: 0, receive: 0 },
  };
}

function loginEntry(): Json {
  return {
    ...base,
    startedDateTime: "2026-11-29T20:00:03.000Z",
    time: 5,
    request: {
      method: "POST",
      url: "http://127.0.0.1:7070/api/login",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }],
      queryString: [],
      postData: {
        mimeType: "application/x-www-form-urlencoded",
        params: [
          { name: "user", value: "ann" },
          { name: "note", value: "a&b" },
        ],
      },
      headersSize: -1,
      bodySize: 20,
    },
    response: {
      status: 204,
      statusText: "No Content",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: "" },
      redirectURL: "",
      headersSize: -1,
      bodySize: 0,
    },
    timings: { send: 1, wait: 3, receive: 1 },
  };
}

function bigJsEntry(): Json {
  return {
    ...base,
    startedDateTime: "2026-11-29T20:00:04.000Z",
    time: 50,
    request: {
      method: "GET",
      url: "http://127.0.0.1:7070/big.js",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [],
      content: { size: 5_000_000, mimeType: "text/javascript" },
      redirectURL: "",
      headersSize: -1,
      bodySize: 1_200_000,
    },
    timings: { send: 1, wait: 9, receive: 40 },
  };
}
