/**
 * What a tap answers itself, as bytes for the client socket: a refusal (403/415, then the connection
 * closes: the request's body is left unread), a malformed request (400, then close), a request head that took
 * too long (408, then close), and the 502/504 of an upstream that is down or silent (JSON naming it; the
 * connection stays open).
 */
import type { Refusal } from "@hopscope/nodekit/guard";
import { toHeaderBlock } from "@hopscope/shared/trace/header-block";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  415: "Unsupported Media Type",
  502: "Bad Gateway",
  504: "Gateway Timeout",
};

export interface Answer {
  status: number;
  /** Node's raw form: [name, value, …]. */
  headers: string[];
  body: Buffer;
  /** Head and body, ready for the socket. */
  bytes: Buffer;
}

export function jsonAnswer(status: number, message: string, close: boolean): Answer {
  const body = Buffer.from(JSON.stringify({ error: message }));
  const headers = ["Content-Type", "application/json; charset=utf-8", "Content-Length", String(body.length)];
  if (close) headers.push("Connection", "close");
  const head = `HTTP/1.1 ${status} ${REASONS[status] ?? ""}\r\n${toHeaderBlock(headers)}\r\n`;
  return { status, headers, body, bytes: Buffer.concat([Buffer.from(head, "latin1"), body]) };
}

export function refusalAnswer(refusal: Refusal): Answer {
  return jsonAnswer(refusal.status, refusal.message, true);
}

/** What node:http's server sent for a request it could not parse (the old taps' clientError answer). */
export const BAD_REQUEST = Buffer.from("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n", "latin1");
/** What node:http's server sends when a request head is not complete within headersTimeout. */
export const REQUEST_TIMEOUT = Buffer.from("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n", "latin1");
