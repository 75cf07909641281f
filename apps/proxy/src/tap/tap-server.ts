/**
 * One tap: a transparent reverse proxy as a byte relay (the hot path; no framework, no node:http). Each
 * client connection gets an upstream connection of its own (request-relay.ts); method, path, query,
 * end-to-end headers and bodies pass unchanged, and the response bytes go to the client as they arrive,
 * unchanged, each read handed to the recorder with its arrival time. See docs/recorder.md, "Taps".
 */
import net from "node:net";
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { GuardPolicy } from "@hopscope/nodekit/guard";
import { urlHost } from "@hopscope/nodekit/listen";
import type { ExchangeReporter } from "./exchange-reporter";
import type { RecordingGate } from "./recording-gate";
import type { Logger } from "../logger";
import { RequestRelay } from "./request-relay";
import type { RelayContext } from "./relay-context";
import { HeadTimer } from "./head-timer";

export interface TapOptions {
  tap: Tap;
  upstream: string;
  host: string;
  port: number;
  reporter: ExchangeReporter;
  /** Closed while the recording thread is behind: connections then stop reading new requests. */
  gate: RecordingGate;
  timeoutMs: number;
  /** A request head not complete this long after its first byte gets 408 and the connection closes. */
  headersTimeoutMs: number;
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

export async function startTap(opts: TapOptions): Promise<TapHandle> {
  const target = new URL(opts.upstream);
  if (target.protocol !== "http:")
    throw new Error(`the ${opts.tap} tap forwards to http:// upstreams only (got ${opts.upstream})`);
  const relays = new Set<RequestRelay>();
  const heads = new HeadTimer(opts.headersTimeoutMs, (tick) => {
    for (const r of relays) r.checkHeadTime(tick);
  });
  const ctx: RelayContext = {
    tap: opts.tap,
    upstream: opts.upstream,
    target: {
      hostname: target.hostname.replace(/^\[|\]$/g, ""),
      port: Number(target.port || 80),
      host: target.host,
      basePath: target.pathname.replace(/\/+$/, ""),
    },
    reporter: opts.reporter,
    gate: opts.gate,
    timeoutMs: opts.timeoutMs,
    heads,
    logger: opts.logger,
    guard: opts.guard,
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    const relay = new RequestRelay(socket, ctx);
    relays.add(relay);
    socket.on("close", () => {
      sockets.delete(socket);
      relays.delete(relay);
    });
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (err: Error) => {
      heads.close();
      reject(err);
    };
    server.once("error", failed);
    server.listen(opts.port, opts.host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    tap: opts.tap,
    upstream: opts.upstream,
    port,
    url: `http://${urlHost(opts.host)}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        heads.close();
        server.close((err) => (err ? reject(err) : resolve()));
        // Keep-alive connections (and streams in flight) would hold close() open: they end now, and the
        // exchanges still in flight are recorded as aborted.
        for (const s of sockets) s.destroy();
      }),
  };
}
