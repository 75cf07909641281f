/**
 * Test helpers: the recorder on port 0 in a temp dir (from tests/support/recorder.ts, shared with the end-to-end
 * tests), small real upstream servers, a WebSocket reader.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import WebSocket from "ws";
import type { RecorderHandle } from "../src/server";
import { ServerFrameSchema, TraceSchema, type ServerFrame, type Trace } from "@hopscope/shared/trace/schemas";

export { closeAll, startRecorder, type TestRecorder } from "../../../tests/support/recorder";

export interface Upstream {
  url: string;
  /** Requests as received: method, url, raw headers, body bytes. */
  received: { method: string; url: string; headers: [string, string][]; body: Buffer }[];
  close(): Promise<void>;
}

/** A real HTTP server; `handle` answers after the whole request body has arrived. */
export async function startUpstream(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void,
): Promise<Upstream> {
  const received: Upstream["received"] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const body = Buffer.concat(parts);
      const headers: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
      received.push({ method: req.method ?? "", url: req.url ?? "", headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Raw HTTP request returning status, headers and the body bytes. */
export function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string; agent?: http.Agent | false } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: opts.method ?? "GET",
        headers: opts.headers,
        ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

export async function getJson<T = unknown>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function traces(rec: RecorderHandle): Promise<Trace[]> {
  const list = await getJson<{ traces: { id: string }[] }>(`${rec.url}/api/traces?limit=500`);
  return Promise.all(
    list.body.traces.map(async (t) => TraceSchema.parse((await getJson(`${rec.url}/api/traces/${t.id}`)).body)),
  );
}

/** Polls until `check` returns a value (exchanges are recorded when the response ends, just after the client sees it). */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  tries = 200,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A live feed client that parses and keeps every frame. */
export class FeedClient {
  readonly frames: ServerFrame[] = [];
  readonly ws: WebSocket;
  private waiters: (() => void)[] = [];

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.ws.on("message", (data) => {
      this.frames.push(ServerFrameSchema.parse(JSON.parse(data.toString())));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.ws.readyState === WebSocket.OPEN) return resolve();
      this.ws.once("open", () => resolve());
      this.ws.once("error", reject);
    });
  }

  async until(pred: (frames: ServerFrame[]) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!pred(this.frames)) {
      if (Date.now() > deadline)
        throw new Error(`live feed: timed out waiting for ${what}; got ${this.frames.map((f) => f.type).join(",")}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  close(): void {
    this.ws.terminate();
  }
}
