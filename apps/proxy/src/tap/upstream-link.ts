/**
 * One connection from a tap to its upstream, opened for one client connection (and opened again for the
 * client's next request when the upstream closed an idle one): the socket, and the parser that frames
 * the responses coming back on it. Bytes are written as they are given; the owner decides what they mean.
 */
import net from "node:net";
import { MessageParser, type Head } from "./llhttp";

export interface UpstreamTarget {
  hostname: string;
  port: number;
}

/** The client connection a link serves (response-queue.ts). */
export interface LinkOwner {
  /** Bytes from the upstream, as they arrived (`arrived`: performance.now() on arrival). */
  upstreamBytes(link: UpstreamLink, bytes: Buffer, arrived: number): void;
  responseHead(link: UpstreamLink, head: Head): number;
  responseBody(link: UpstreamLink, bytes: Buffer): void;
  responseComplete(link: UpstreamLink): void;
  /** The link is gone: an error, a timeout while a response is due, or the upstream closed it. */
  linkDown(link: UpstreamLink, err: Error | null): void;
  linkTimeout(link: UpstreamLink): void;
  linkDrained(link: UpstreamLink): void;
}

export class UpstreamLink {
  readonly socket: net.Socket;
  readonly parser: MessageParser;
  /** Bytes read from the upstream so far: a response has begun once more arrived than when its request went. */
  received = 0;
  /** Responses completed on it: a link that served one is a reused keep-alive connection. */
  served = 0;
  /** `received` when the last response completed: more than that means the next response has begun. */
  answeredUpTo = 0;
  /** The upstream sent its FIN: it will answer nothing more, so no request is written on it. */
  ended = false;
  private down = false;

  constructor(target: UpstreamTarget, timeoutMs: number, owner: LinkOwner) {
    this.parser = new MessageParser("response", {
      head: (head) => owner.responseHead(this, head),
      body: (bytes) => owner.responseBody(this, bytes),
      complete: () => owner.responseComplete(this),
    });
    const socket = net.connect({ host: target.hostname, port: target.port, noDelay: true });
    this.socket = socket;
    // Idle time on the socket (connecting included), as node:http's `timeout` option was: the owner answers
    // 504 when a response is due, and ignores it on an idle keep-alive link.
    socket.setTimeout(timeoutMs);
    socket.on("data", (bytes: Buffer) => {
      this.received += bytes.length;
      owner.upstreamBytes(this, bytes, performance.now());
    });
    socket.on("end", () => (this.ended = true));
    socket.on("drain", () => owner.linkDrained(this));
    socket.on("timeout", () => owner.linkTimeout(this));
    socket.on("error", (err) => this.gone(owner, err));
    socket.on("close", () => this.gone(owner, null));
  }

  /** Heads are latin1 strings of their bytes (as the parser gave them); bodies are bytes. */
  write(data: string | Buffer): boolean {
    return typeof data === "string" ? this.socket.write(data, "latin1") : this.socket.write(data);
  }

  /** One chunk of a chunked request body, framed again (the parser gives the de-chunked bytes). */
  writeChunk(bytes: Buffer): boolean {
    this.socket.write(`${bytes.length.toString(16)}\r\n`, "latin1");
    this.socket.write(bytes);
    return this.socket.write("\r\n", "latin1");
  }

  destroy(): void {
    this.down = true;
    this.socket.destroy();
    this.parser.close();
  }

  private gone(owner: LinkOwner, err: Error | null): void {
    if (this.down) return;
    this.down = true;
    owner.linkDown(this, err);
    this.socket.destroy();
    this.parser.close();
  }
}
