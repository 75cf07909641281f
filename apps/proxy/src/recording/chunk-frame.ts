/**
 * The recorder's `exchange.chunk` frame, whose text is decoded only when the frame is serialised: a frame
 * parked while nobody watches usually never is. A class rather than an object literal with a getter: V8
 * builds such a literal on its slow path, dozens of times dearer than this, once per chunk.
 */
import type { Chunk } from "@hopscope/shared/trace/schemas";
import { decodeOrNull } from "../link/stored-body";

export class ChunkFrame {
  readonly type = "exchange.chunk" as const;

  constructor(
    readonly exchangeId: number,
    readonly traceId: string,
    readonly chunk: Chunk,
    /** The chunk's bytes when it is small enough to show (MAX_CHUNK_TEXT), else null. */
    private readonly small: Buffer | null,
  ) {}

  /** The chunk as text, when it is UTF-8 on its own; undefined leaves the field out of the JSON. */
  get text(): string | undefined {
    return this.small ? (decodeOrNull(this.small) ?? undefined) : undefined;
  }

  /** The frame's JSON (without the bytes it decodes its text from). */
  toJSON(): { type: "exchange.chunk"; exchangeId: number; traceId: string; chunk: Chunk; text?: string } {
    const text = this.text;
    return {
      type: this.type,
      exchangeId: this.exchangeId,
      traceId: this.traceId,
      chunk: this.chunk,
      ...(text === undefined ? {} : { text }),
    };
  }
}
