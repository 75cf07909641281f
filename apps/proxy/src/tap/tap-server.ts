/**
 * One tap: a transparent reverse proxy on node:http (the hot path; no framework). Method, path, query,
 * end-to-end headers and bodies pass unchanged; the response is written to the client chunk by chunk as
 * it arrives from the upstream (never buffered), and each chunk is handed to the recorder with its
 * arrival time. See docs/architecture.md, "Taps".
 */
import http from "node:http";
import type { Tap } from "@hopscope/shared/trace/schemas";
import { parseTraceparent } from "@hopscope/shared/trace/traceparent";
import { newTraceparent } from "@hopscope/nodekit/trace-ids";
import type { TapRecorder } from "../tap-recorder";
import { flatten, forwardHeaders, getHeader, pairsOf, setFlatHeader, setHeader } from "./hop-headers";
import { UpstreamTimeoutError, upstreamFailure } from "./upstream-error";
import type { Logger } from "../logger";
import { checkIncoming, type GuardPolicy, type Refusal } from "@hopscope/nodekit/guard";
import { listenServer } from "@hopscope/nodekit/listen";

export interface TapOptions {
  tap: Tap;
  upstream: string;
  host: string;
  port: number;
  recorder: TapRecorder;
  timeoutMs: number;
  logger: Logger;
  /**
   * Checked on the client's request before forwarding: the tap rewrites Host, so the upstream cannot see
   * a rebinding Host itself (Origin is forwarded as sent, so the upstream checks it too).
   */
  guard: GuardPolicy;
}

export interface TapHandle {
  tap: Tap;
  upstream: string;
  url: string;
  port: number;
  close(): Promise<void>;
}

function flushEarly(res: http.ServerResponse): void {
  if (!res.headersSent && !res.writableEnded && !res.destroyed) res.flushHeaders();
}

export async function startTap(opts: TapOptions): Promise<TapHandle> {
  const target = new URL(opts.upstream);
  const basePath = target.pathname.replace(/\/+$/, "");
  // Keep-alive to the upstream: a chat turn makes several calls; reconnecting each time adds latency.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, noDelay: true } as http.AgentOptions);
  const server = http.createServer({ noDelay: true, requestTimeout: 0 }, (req, res) => forward(req, res));

  function forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    const refusal = checkIncoming(req, opts.guard);
    if (refusal) return refuse(res, refusal);
    const received = pairsOf(req.rawHeaders);
    let recorded = received;
    const outgoing = forwardHeaders(req.rawHeaders, target.host);
    if (opts.tap === "agent" && !parseTraceparent(getHeader(received, "traceparent"))) {
      // The agent tap starts the trace so every hop of this question shares one trace-id.
      const tp = newTraceparent();
      setFlatHeader(outgoing, "traceparent", tp);
      recorded = setHeader(received, "traceparent", tp);
    }
    const { recorder } = opts;
    const ex = recorder.begin({
      tap: opts.tap,
      method: req.method ?? "GET",
      url: req.url ?? "/",
      upstream: opts.upstream,
      requestHeaders: recorded,
      connection: `${req.socket.remoteAddress ?? "?"}:${req.socket.remotePort ?? "?"}`,
    });

    const upReq = http.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: basePath + (req.url ?? "/"),
      headers: outgoing as unknown as http.OutgoingHttpHeaders,
      agent,
      timeout: opts.timeoutMs,
    });
    upReq.on("timeout", () => upReq.destroy(new UpstreamTimeoutError(opts.upstream, opts.timeoutMs)));
    upReq.on("error", (err) => fail(err));
    upReq.on("response", (upRes) => relay(upRes));

    req.on("data", (chunk: Buffer) => {
      recorder.requestData(ex, chunk);
      if (!upReq.write(chunk)) req.pause();
    });
    upReq.on("drain", () => req.resume());
    req.on("end", () => {
      upReq.end();
      recorder.requestEnded(ex);
    });
    let clientGone = false;
    req.on("error", (err) => {
      // The client's connection failed mid-request; res "close" records the exchange as aborted.
      opts.logger.debug?.({ err, exchange: ex.id }, "client request stream failed");
      upReq.destroy();
    });
    res.on("close", () => {
      if (res.writableFinished) return;
      // The client hung up before the response was complete: stop the upstream's work too.
      clientGone = true;
      recorder.finish(ex, "aborted", "the client closed the connection before the response was complete");
      upReq.destroy();
    });

    function relay(upRes: http.IncomingMessage): void {
      recorder.responseStarted(ex, upRes.statusCode ?? 502, pairsOf(upRes.rawHeaders));
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, forwardHeaders(upRes.rawHeaders));
      // The headers go out with the first body bytes in one write when those are already here (a small
      // reply arrives in one read, its body handled before this turn of I/O ends); a stream whose first
      // byte takes longer gets its headers right after it, without waiting for that byte.
      setImmediate(flushEarly, res);
      let ended = false;
      upRes.on("data", (chunk: Buffer) => {
        // Arrival time first, then the bytes go to the client, and only then does recording work on them.
        const arrived = performance.now();
        if (upRes.complete && upRes.readableLength === 0) {
          // The last bytes (the message is complete and nothing else is buffered): send them and end the
          // response in one write.
          ended = true;
          res.end(chunk);
        } else if (!res.write(chunk)) upRes.pause();
        recorder.responseChunk(ex, chunk, arrived);
      });
      res.on("drain", () => upRes.resume());
      upRes.on("end", () => {
        if (!ended) res.end();
        if (!res.destroyed) recorder.finish(ex, "complete");
      });
      upRes.on("error", (err) => fail(err));
      upRes.on("aborted", () => fail(new Error(`the upstream ${opts.upstream} closed the connection mid-response`)));
    }

    function fail(err: Error): void {
      // Our own abort of the upstream request after the client left: already recorded, nobody to answer.
      if (clientGone) return;
      if (res.headersSent) {
        // Mid-response: the status is already on the wire, so the only honest signal is to cut the connection.
        recorder.finish(ex, "error", err.message);
        res.destroy();
        return;
      }
      const { status, message } = upstreamFailure(opts.tap, opts.upstream, err);
      opts.logger.warn({ tap: opts.tap, upstream: opts.upstream, err: err.message }, "upstream failed");
      const body = Buffer.from(JSON.stringify({ error: message }));
      const headers: [string, string][] = [
        ["Content-Type", "application/json; charset=utf-8"],
        ["Content-Length", String(body.length)],
      ];
      recorder.responseStarted(ex, status, headers);
      recorder.responseChunk(ex, body);
      res.writeHead(status, flatten(headers));
      res.end(body);
      recorder.finish(ex, "error", message);
    }
  }

  function refuse(res: http.ServerResponse, refusal: Refusal): void {
    // Not forwarded and not recorded: nothing reached the upstream. The body is left unread, so no reuse.
    opts.logger.warn({ tap: opts.tap, reason: refusal.reason }, refusal.message);
    const body = JSON.stringify({ error: refusal.message });
    res.writeHead(refusal.status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body), Connection: "close" });
    res.end(body);
  }

  server.on("clientError", (err, socket) => {
    opts.logger.debug?.({ err }, "malformed client request");
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });

  const listening = await listenServer(server, opts.port, opts.host);
  return {
    tap: opts.tap,
    upstream: opts.upstream,
    port: listening.port,
    url: listening.url,
    close: async () => {
      await listening.close();
      agent.destroy();
    },
  };
}

