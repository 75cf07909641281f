/**
 * A tiny real HTTP pass-through for tests: put it between two apps and it forwards every request
 * unchanged, keeping what crossed the wire (method, path, headers, request body, status, response body).
 * Streaming responses are forwarded chunk by chunk and recorded whole. Not the product's recorder
 * (apps/proxy): just enough for a test to see what an upstream received.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedExchange {
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  /** Request headers, names lower-cased (Node's view). */
  headers: IncomingHttpHeaders;
  requestBody: string;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  responseBody: string;
}

export interface RecordingProxy {
  url: string;
  /** Completed exchanges, in the order their responses finished. */
  exchanges: RecordedExchange[];
  /** Parsed JSON request bodies of the exchanges whose path starts with `pathPrefix`. */
  jsonBodies(pathPrefix?: string): unknown[];
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /**
   * Change a response body before the client gets it (the response is then buffered, not streamed), to
   * stage what a different upstream would have said. Return the body unchanged to pass it through.
   * The recording keeps what the client received.
   */
  rewriteResponse?: (request: { method: string; path: string; body: string }, responseBody: string) => string;
}

/** Forward to `upstream` (an origin such as http://127.0.0.1:11435; the path comes from each request). */
export async function startRecordingProxy(upstream: string, opts: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const exchanges: RecordedExchange[] = [];
  const server = createServer((req, res) => {
    const requestChunks: Buffer[] = [];
    req.on("data", (c: Buffer) => requestChunks.push(c));
    req.on("end", () => {
      const requestBody = Buffer.concat(requestChunks);
      const headers = { ...req.headers, host: target.host };
      const out = httpRequest(
        { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (up) => {
          const rewrite = opts.rewriteResponse;
          if (!rewrite) res.writeHead(up.statusCode ?? 502, up.headers);
          const responseChunks: Buffer[] = [];
          up.on("data", (c: Buffer) => {
            responseChunks.push(c);
            if (!rewrite) res.write(c);
          });
          up.on("end", () => {
            let responseBody = Buffer.concat(responseChunks).toString("utf8");
            if (rewrite) {
              responseBody = rewrite(
                { method: req.method ?? "", path: req.url ?? "", body: requestBody.toString("utf8") },
                responseBody,
              );
              const headers = { ...up.headers, "content-length": String(Buffer.byteLength(responseBody)) };
              delete headers["transfer-encoding"];
              res.writeHead(up.statusCode ?? 502, headers);
              res.write(responseBody);
            }
            exchanges.push({
              method: req.method ?? "",
              path: req.url ?? "",
              headers: req.headers,
              requestBody: requestBody.toString("utf8"),
              status: up.statusCode ?? 0,
              responseHeaders: up.headers,
              responseBody,
            });
            res.end();
          });
        },
      );
      // An unreachable upstream is what a real network does: the client sees the connection fail.
      out.on("error", () => res.destroy());
      out.end(requestBody);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    jsonBodies: (pathPrefix = "") =>
      exchanges.filter((e) => e.path.startsWith(pathPrefix)).map((e) => JSON.parse(e.requestBody) as unknown),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
