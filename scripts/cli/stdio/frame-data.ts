/** A stdio frame as the stdio tap sends it to the recorder: UTF-8 text when it is, else base64; cut to `cap`. */
import type { StdioFrame } from "@hopscope/shared/mcp/stdio-frames";
import type { StdioFrameData } from "@hopscope/shared/trace/stdio-ingest";

const utf8 = new TextDecoder("utf-8", { fatal: true });

export function frameData(frame: StdioFrame, cap: number): StdioFrameData {
  const bytes = frame.bytes.length > cap ? frame.bytes.subarray(0, cap) : frame.bytes;
  // A cut frame may end mid-character: drop up to 3 bytes so the rest still reads as text.
  for (let drop = 0; drop <= (bytes.length < frame.size ? 3 : 0) && drop <= bytes.length; drop++) {
    try {
      return { encoding: "utf8", data: utf8.decode(bytes.subarray(0, bytes.length - drop)), size: frame.size };
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
    }
  }
  return { encoding: "base64", data: Buffer.from(bytes).toString("base64"), size: frame.size };
}
