/**
 * Recorded bodies (`Body` of @hopscope/shared/trace/schemas) for the export formats: building one from
 * bytes (UTF-8 stays text, anything else becomes base64 so no byte is lost), and reading one as JSON.
 */
import { Buffer } from "node:buffer";
import { utf8BodyText } from "@hopscope/shared/trace/classify";
import type { Body } from "@hopscope/shared/trace/schemas";
import { tryParseJson } from "@hopscope/shared/json/parse";
import { parseSse } from "@hopscope/shared/framing/sse";

/** A UTF-8 text body as received. */
export function utf8Body(text: string, contentType: string | undefined): Body {
  const size = Buffer.byteLength(text, "utf8");
  return {
    encoding: "utf8",
    data: text,
    size,
    storedSize: size,
    truncated: false,
    ...(contentType ? { contentType } : {}),
  };
}

const fatalDecoder = new TextDecoder("utf-8", { fatal: true });

/** A body from bytes: text when they are valid UTF-8, base64 otherwise. */
export function bodyFromBytes(bytes: Uint8Array, contentType: string | undefined): Body {
  let text: string | undefined;
  try {
    text = fatalDecoder.decode(bytes);
  } catch (err) {
    // Not UTF-8 (an image, a gzip, a Latin-1 form): the decoder's refusal is the answer, keep every byte.
    if (!(err instanceof TypeError)) throw err;
  }
  if (text !== undefined) return utf8Body(text, contentType);
  return {
    encoding: "base64",
    data: Buffer.from(bytes).toString("base64"),
    size: bytes.length,
    storedSize: bytes.length,
    truncated: false,
    ...(contentType ? { contentType } : {}),
  };
}

/**
 * A complete JSON body parsed; for an SSE-framed body (MCP streamable HTTP) the JSON of its last event.
 * `undefined` for bodies that are truncated, binary or not JSON: those simply have no JSON view.
 */
export function bodyJson(body: Body | null): unknown {
  if (!body || body.truncated) return undefined;
  const text = utf8BodyText(body);
  if (text === null) return undefined;
  const direct = tryParseJson(text);
  return direct !== undefined ? direct : tryParseJson(parseSse(text).at(-1)?.data);
}
