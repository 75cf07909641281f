/**
 * Bodies as the recorder keeps them: the first `cap` bytes (forwarding is never affected), stored as
 * UTF-8 text when they decode as such, otherwise as raw bytes (served as base64 per BodySchema). A big
 * UTF-8 body of live traffic is kept as its bytes, validated but not decoded: SQLite stores them as they
 * are, and they are decoded only when something reads the text.
 */
import { isUtf8 } from "node:buffer";
import type { Body } from "@hopscope/shared/trace/schemas";
import { utf8Text } from "@hopscope/nodekit/utf8-text";

export interface StoredBody {
  /** Text, or bytes: the body's own UTF-8 bytes when `encoding` is utf8 (big live bodies), raw bytes otherwise. */
  data: string | Buffer;
  encoding: "utf8" | "base64";
  size: number;
  storedSize: number;
  truncated: boolean;
  contentType: string | null;
}

/** Collects a body's bytes as they stream past, up to a cap, counting the whole size. */
export class BodyCollector {
  private parts: Buffer[] = [];
  private kept = 0;
  size = 0;

  constructor(private readonly cap: number) {}

  /**
   * Counts `size` bytes (the chunk's own length unless it was cut before) and keeps what fits under the
   * cap, as is: chunks are kept as they arrive and joined only when the body is finished. Returns the part
   * kept (null once the cap is reached).
   */
  add(chunk: Buffer, size = chunk.length): Buffer | null {
    this.size += size;
    if (this.kept >= this.cap) return null;
    const room = this.cap - this.kept;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.parts.push(part);
    this.kept += part.length;
    return part;
  }

  /** The bytes kept so far, as they arrived. */
  get keptParts(): readonly Buffer[] {
    return this.parts;
  }

  finish(contentType: string | null): StoredBody {
    // Most bodies arrive in one read: decode that Buffer itself instead of copying it first.
    const bytes = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.kept);
    return keptBody(bytes, this.size, contentType);
  }
}

/** UTF-8 bodies up to this size are decoded when kept; bigger ones stay bytes until their text is read. */
const DECODED_UP_TO = 16 * 1024;

/**
 * A live body as the recorder keeps it: text when small, its bytes when big (checked to be UTF-8, which
 * is native and far cheaper than decoding them), raw bytes when not UTF-8. A truncated body may end
 * mid-character, so up to 3 trailing bytes may be dropped.
 */
export function keptBody(bytes: Buffer, size: number, contentType: string | null): StoredBody {
  if (bytes.length <= DECODED_UP_TO) return toStoredBody(bytes, size, contentType);
  const truncated = bytes.length < size;
  for (let drop = 0; drop <= (truncated ? 3 : 0) && drop <= bytes.length; drop++) {
    const view = bytes.subarray(0, bytes.length - drop);
    if (isUtf8(view)) return { data: view, encoding: "utf8", size, storedSize: view.length, truncated, contentType };
  }
  return { data: bytes, encoding: "base64", size, storedSize: bytes.length, truncated, contentType };
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes strictly; a truncated body may end mid-character, so up to 3 trailing bytes may be dropped. */
export function toStoredBody(bytes: Buffer, size: number, contentType: string | null): StoredBody {
  const truncated = bytes.length < size;
  for (let drop = 0; drop <= (truncated ? 3 : 0) && drop <= bytes.length; drop++) {
    const view = bytes.subarray(0, bytes.length - drop);
    const text = decodeOrNull(view);
    if (text !== null) return { data: text, encoding: "utf8", size, storedSize: view.length, truncated, contentType };
  }
  return { data: bytes, encoding: "base64", size, storedSize: bytes.length, truncated, contentType };
}

/** The bytes as UTF-8 text, or null when they are not valid UTF-8 (binary, or a character cut in two). */
export function decodeOrNull(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch (err) {
    // Not UTF-8: the caller keeps the raw bytes instead.
    if (err instanceof TypeError) return null;
    throw err;
  }
}

/** A stored body as the API serves it. */
export function toBody(b: StoredBody): Body {
  const data =
    typeof b.data === "string" ? b.data : b.encoding === "utf8" ? utf8Text(b.data) : b.data.toString("base64");
  return {
    encoding: b.encoding,
    data,
    size: b.size,
    storedSize: b.storedSize,
    truncated: b.truncated,
    ...(b.contentType ? { contentType: b.contentType } : {}),
  };
}

/** Text of a stored body for classification (null when it is not text); a body kept as UTF-8 bytes is decoded. */
export function textOf(b: StoredBody | null): string | null {
  if (!b) return null;
  if (typeof b.data === "string") return b.data;
  return b.encoding === "utf8" ? utf8Text(b.data) : null;
}
