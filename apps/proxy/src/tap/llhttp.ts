/**
 * llhttp, the HTTP/1.1 parser node:http itself runs, driven directly by the taps' byte relay.
 *
 * Why the internal binding (`node:_http_common`'s HTTPParser) and not `http-parser-js` from npm: it is the
 * same parser, the same strictness and the same limits (max header size, request smuggling defences) as
 * every Node server the taps stand in front of, in C, and on Node 20 its JavaScript surface is the one
 * node:http's own client and server use (checked on 20.20: initialize, execute, finish, pause-by-return,
 * the kOn* callback slots). `http-parser-js` is a JavaScript reimplementation with its own leniencies,
 * several times slower. The surface used here is small and typed below, so a Node upgrade that changes it
 * fails the tap tests at once.
 */
import { createRequire } from "node:module";

interface NativeParser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  /** Bytes parsed, or an Error (`code` HPE_…, `bytesParsed`, `reason`). */
  execute(data: Buffer): number | ParseError;
  /** End of input: completes a body that runs to the end of the connection. */
  finish(): ParseError | undefined;
  resume(): void;
  close(): void;
  [slot: number]: unknown;
}

interface HTTPParserClass {
  new (): NativeParser;
  REQUEST: number;
  RESPONSE: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}

export interface ParseError extends Error {
  code: string;
  bytesParsed: number;
  reason: string;
}

const common = createRequire(import.meta.url)("node:_http_common") as {
  HTTPParser: HTTPParserClass;
  methods: string[];
};
const { HTTPParser } = common;

/** What kOnHeadersComplete returns: go on with the body, or there is none (a HEAD response, a 1xx). */
export const BODY = 0;
export const NO_BODY = 1;

export interface Head {
  versionMajor: number;
  versionMinor: number;
  /** Node's raw form: [name, value, name, value, …], names as sent, values as latin1 strings of the bytes. */
  headers: string[];
  /** Requests: the method and the request target as sent. */
  method: string;
  url: string;
  /** Responses: the status code. */
  status: number;
  /** llhttp's verdict (Connection, HTTP version): whether the connection stays open after this message. */
  keepAlive: boolean;
  upgrade: boolean;
}

export interface ParserHandlers {
  /** The head is complete; the return value says whether a body follows (BODY / NO_BODY). */
  head(head: Head): number;
  /** De-chunked body bytes (a copy, safe to keep). */
  body(bytes: Buffer): void;
  complete(): void;
}

export type ParserKind = "request" | "response";

/** One parser for one direction of one connection. */
export class MessageParser {
  private readonly native = new HTTPParser();
  /** Heads over 32 fields arrive in pieces (kOnHeaders) before kOnHeadersComplete. */
  private pendingHeaders: string[] = [];
  private pendingUrl = "";
  private stopped = false;
  private closed = false;

  constructor(kind: ParserKind, handlers: ParserHandlers) {
    const p = this.native;
    p.initialize(kind === "request" ? HTTPParser.REQUEST : HTTPParser.RESPONSE, {}, 0, 0);
    p[HTTPParser.kOnHeaders] = (headers: string[], url: string) => {
      this.pendingHeaders = this.pendingHeaders.concat(headers);
      this.pendingUrl += url;
    };
    p[HTTPParser.kOnHeadersComplete] = (
      versionMajor: number,
      versionMinor: number,
      headers: string[] | undefined,
      method: number | undefined,
      url: string | undefined,
      status: number | undefined,
      _statusMessage: string | undefined,
      upgrade: boolean,
      keepAlive: boolean,
    ): number => {
      let all = headers;
      if (all === undefined) {
        all = this.pendingHeaders;
        this.pendingHeaders = [];
      }
      let target = url;
      if (target === undefined) {
        target = this.pendingUrl;
        this.pendingUrl = "";
      }
      return handlers.head({
        versionMajor,
        versionMinor,
        headers: all,
        method: method === undefined ? "" : (common.methods[method] ?? ""),
        url: target,
        status: status ?? 0,
        keepAlive,
        upgrade,
      });
    };
    p[HTTPParser.kOnBody] = (bytes: Buffer) => handlers.body(bytes);
    p[HTTPParser.kOnMessageComplete] = () => handlers.complete();
  }

  /**
   * Parses all of `data`, calling the handlers as it goes. Returns null, or the parse error (the message is
   * malformed: what came after it cannot be framed).
   */
  execute(data: Buffer): ParseError | null {
    if (this.closed) return null;
    let rest = data;
    for (;;) {
      const r = this.native.execute(rest);
      if (typeof r !== "number") return r;
      if (this.stopped) return null;
      // llhttp stops after the head of a message that asks for an upgrade (or CONNECT); the taps do not
      // switch protocols (Upgrade is hop-by-hop and not forwarded), so the next bytes are the next message.
      if (r >= rest.length || r === 0) return null;
      rest = rest.subarray(r);
    }
  }

  /** No more parsing: the connection switched protocols (101) and what follows is not HTTP. */
  stop(): void {
    this.stopped = true;
  }

  /** The connection ended: completes a body delimited by the end of the connection. */
  finish(): ParseError | null {
    if (this.closed) return null;
    return this.native.finish() ?? null;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopped = true;
    // As node:http does: free the native parser only once the stack that may be inside it has unwound.
    setImmediate(() => this.native.close());
  }
}
