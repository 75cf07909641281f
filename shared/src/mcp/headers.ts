/**
 * The `=?base64?…?=` sentinel of SEP-2243: header values that are not safe plain ASCII (non-ASCII,
 * control characters, leading/trailing whitespace, empty, or text that already looks like the
 * sentinel) travel as Base64 of their UTF-8 bytes. Isomorphic: TextEncoder/TextDecoder + btoa/atob.
 */
const PREFIX = "=?base64?";
const SUFFIX = "?=";
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True when `value` cannot travel as a plain header value and must be wrapped. */
export function needsHeaderEncoding(value: string): boolean {
  if (value.length === 0) return true;
  if (isSentinel(value)) return true;
  if (value !== value.trim()) return true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 0x09 && (c < 0x20 || c > 0x7e)) return true;
  }
  return false;
}

function isSentinel(value: string): boolean {
  return value.startsWith(PREFIX) && value.endsWith(SUFFIX) && value.length >= PREFIX.length + SUFFIX.length;
}

/** Encode a value for `Mcp-Name` (or `Mcp-Param-*`): as is when safe, else the Base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  if (!needsHeaderEncoding(value)) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `${PREFIX}${btoa(binary)}${SUFFIX}`;
}

export type DecodedHeader = { ok: true; value: string } | { ok: false; error: string };

/**
 * Decode a received header value. A sentinel with bad Base64 or bytes that are not UTF-8 is an error
 * (the server answers -32020), never a silent pass-through.
 */
export function decodeHeaderValue(raw: string): DecodedHeader {
  if (!isSentinel(raw)) return { ok: true, value: raw };
  const b64 = raw.slice(PREFIX.length, raw.length - SUFFIX.length);
  if (!BASE64.test(b64) || b64.length % 4 !== 0) {
    return { ok: false, error: `header value ${JSON.stringify(raw)} is not valid Base64 inside =?base64?…?=` };
  }
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return { ok: true, value: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    // The fatal decoder throws a bare TypeError; the caller needs to know which header was wrong.
    return { ok: false, error: `header value ${JSON.stringify(raw)} does not decode to UTF-8 text` };
  }
}
