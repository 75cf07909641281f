/**
 * Reading NDJSON (`application/x-ndjson`: one JSON value per "\n"-terminated line, Ollama's streaming
 * format), whole or as it streams. Every caller says what a line that is not JSON means: "throw" where a
 * half-read stream must never look like a shorter valid one (a client reading a live answer), "skip"
 * where the text is an untrusted recording read for what it holds (the classifier and the views).
 */
import { parseJson, tryParseJson } from "../json/parse";
import { streamLines } from "./lines";

export interface NdjsonOptions {
  onBadLine: "throw" | "skip";
}

export class NdjsonLineError extends Error {
  override readonly name = "NdjsonLineError";
  constructor(
    /** 1-based line number in the text or stream. */
    readonly line: number,
    text: string,
    cause: unknown,
  ) {
    super(`NDJSON line ${line} is not JSON: ${text.slice(0, 200)}`, { cause });
  }
}

/** Splits a complete NDJSON text into parsed values; blank lines (a trailing newline leaves one) are skipped. */
export function parseNdjson(text: string, opts: NdjsonOptions): unknown[] {
  const values: unknown[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    const value = parseLine(line, i + 1, opts);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** The values of an NDJSON body as its chunks arrive; a last line without its newline still counts. */
export async function* ndjsonStream(body: ReadableStream<Uint8Array>, opts: NdjsonOptions): AsyncGenerator<unknown> {
  let n = 0;
  for await (const line of streamLines(body, { crEndsLine: false })) {
    const value = parseLine(line, ++n, opts);
    if (value !== undefined) yield value;
  }
}

/** A line's value; undefined for a blank line, or for a bad one when the caller skips those. */
function parseLine(line: string, n: number, opts: NdjsonOptions): unknown {
  if (line.trim() === "") return undefined;
  if (opts.onBadLine === "skip") return tryParseJson(line);
  try {
    return parseJson(line);
  } catch (err) {
    throw new NdjsonLineError(n, line, err);
  }
}
