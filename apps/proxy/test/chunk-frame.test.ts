import { describe, expect, it } from "vitest";
import { ServerFrameSchema } from "@hopscope/shared/trace/schemas";
import { ChunkFrame } from "../src/recording/chunk-frame";

describe("the exchange.chunk frame", () => {
  const chunk = { index: 2, t: 12.5, offset: 40, size: 6 };

  it("serialises as the frame, with the chunk's text when it is UTF-8 on its own", () => {
    const frame = new ChunkFrame(7, "trace-1", chunk, Buffer.from("héllo"));
    const json = JSON.parse(JSON.stringify(frame));
    expect(json).toEqual({ type: "exchange.chunk", exchangeId: 7, traceId: "trace-1", chunk, text: "héllo" });
    expect(ServerFrameSchema.parse({ ...json, seq: 1 })).toMatchObject({ type: "exchange.chunk", text: "héllo" });
    expect(frame.text).toBe("héllo");
  });

  it("leaves the text out when the bytes are not text on their own, or were not kept", () => {
    // A two-byte character cut after its first byte.
    const cut = new ChunkFrame(7, "trace-1", chunk, Buffer.from([0x68, 0xc3]));
    for (const frame of [cut, new ChunkFrame(7, "trace-1", chunk, null)]) {
      expect(JSON.parse(JSON.stringify(frame))).toEqual({
        type: "exchange.chunk",
        exchangeId: 7,
        traceId: "trace-1",
        chunk,
      });
      expect(frame.text).toBeUndefined();
    }
  });
});
