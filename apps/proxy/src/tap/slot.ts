/**
 * A client connection's queue entry (response-queue.ts): an exchange whose response is due, or an answer of
 * the tap's own waiting for its turn; and the idle-close retry's rules on it (resendable / resend).
 */
import type { LiveExchange } from "./live-exchange";
import type { UpstreamLink } from "./upstream-link";

export interface Slot {
  ex: LiveExchange | null;
  /** The tap's own answer (then the connection closes); null for a forwarded request. */
  local: Buffer | null;
  /** The link its request went on; null once that link failed (the rest of its body is dropped). */
  link: UpstreamLink | null;
  /** The forwarded head (latin1), kept to send the request again (`resend`); "" for the tap's own answers. */
  head: string;
  /**
   * It went on an idle link that had served a response before: a kept-alive connection the upstream may be
   * closing at that very moment. Only such a request is sent again, and only once.
   */
  reused: boolean;
  isHead: boolean;
  chunked: boolean;
  /** The client's request lets the connection stay open (HTTP version, Connection). */
  keepAlive: boolean;
  started: boolean;
  /** Parsing a 1xx interim response: forwarded, not the exchange's response. */
  interim: boolean;
  upgraded: boolean;
}

export function localSlot(bytes: Buffer): Slot {
  return {
    ex: null,
    local: bytes,
    link: null,
    head: "",
    reused: false,
    isHead: false,
    chunked: false,
    keepAlive: false,
    started: false,
    interim: false,
    upgraded: false,
  };
}

/** How a link the upstream closed as a request arrived fails: a reset, or a write after its close. */
const RETRYABLE: ReadonlySet<string> = new Set(["ECONNRESET", "EPIPE"]);

/**
 * The idle-close race, as browsers and undici handle it: the upstream closed (or reset) the kept-alive link `s`
 * was written to before any byte of its response. It may be sent again when it is the only one due (`alone`)
 * and the tap still holds all of it: its head, and its body as the recorder keeps it (the slices already held,
 * up to MAX_BODY_BYTES; a larger body gets the 502). Nothing is copied to decide or to resend.
 */
export function resendable(
  s: Slot | undefined,
  alone: boolean,
  link: UpstreamLink,
  err: Error | null,
): s is Slot & { ex: LiveExchange } {
  if (!s?.ex || !alone || s.link !== link || !s.reused || s.started || s.interim) return false;
  if (
    link.received !== link.answeredUpTo ||
    (err !== null && !RETRYABLE.has((err as NodeJS.ErrnoException).code ?? ""))
  )
    return false;
  const body = s.ex.requestBody;
  let held = 0;
  for (const part of body.keptParts) held += part.length;
  return held === body.size;
}

/** Writes `s` again on `fresh` (once: it is no longer `reused`); `bodyDone`: its body has all arrived. False: back-pressure. */
export function resend(s: Slot & { ex: LiveExchange }, fresh: UpstreamLink, bodyDone: boolean): boolean {
  s.reused = false;
  s.link = fresh;
  fresh.socket.cork();
  let ok = fresh.write(s.head);
  for (const part of s.ex.requestBody.keptParts) ok = s.chunked ? fresh.writeChunk(part) : fresh.write(part);
  // The rest of a body still arriving follows on the fresh link (requestBody); a finished chunked one ends here.
  if (bodyDone && s.chunked) ok = fresh.write("0\r\n\r\n");
  fresh.socket.uncork();
  return ok;
}
