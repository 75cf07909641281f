/** Raw-socket helpers for the byte-relay tests (relay*.test.ts): what a client and an upstream see on the wire. */
import net from "node:net";
import type { AddressInfo } from "node:net";
import { ExchangeSchema } from "@hopscope/shared/trace/schemas";
import { eventually, getJson, traces, type TestRecorder } from "./helpers";

/** Writes `bytes` on a fresh connection and collects what comes back until `done` says so, or the connection closes. */
export function raw(
  port: number,
  bytes: string | Buffer,
  done: (got: string) => boolean = () => false,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1");
    let text = "";
    s.on("data", (d: Buffer) => {
      text += d.toString("latin1");
      if (done(text)) {
        s.destroy();
        resolve({ text, closed: false });
      }
    });
    s.on("close", () => resolve({ text, closed: true }));
    s.on("error", reject);
    s.write(bytes);
  });
}

/** The `count` exchanges recorded so far, in id order, once there are that many. */
export async function recorded(r: TestRecorder, count: number) {
  const all = await eventually(async () => {
    const t = await traces(r);
    const ids = t.flatMap((x) => x.exchanges.map((e) => e.id)).sort((a, b) => a - b);
    return ids.length === count ? ids : null;
  }, `${count} exchanges recorded`);
  return Promise.all(all.map(async (id) => ExchangeSchema.parse((await getJson(`${r.url}/api/exchanges/${id}`)).body)));
}

/** A raw TCP upstream on port 0; `close` ends it and every connection it still has. */
export async function rawServer(
  onConnection: (socket: net.Socket) => void,
  opts: net.ServerOpts = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer(opts, (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    onConnection(s);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A client connection kept open across requests, with everything it has read so far. */
export function keptConnection(port: number): {
  socket: net.Socket;
  text: () => string;
  answers: (status?: string) => number;
} {
  const socket = net.connect(port, "127.0.0.1");
  let got = "";
  socket.on("data", (d: Buffer) => (got += d.toString("latin1")));
  return { socket, text: () => got, answers: (status = "200") => got.split(`HTTP/1.1 ${status} `).length - 1 };
}
