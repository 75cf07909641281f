/**
 * Big JSON answers made and sent in pieces, with the event loop given a turn between them: a prompt of megabytes is
 * several strings of megabytes in one answer (the prompt, the other families' renders), and turning all of it into
 * one JSON text and one buffer at once holds the API thread for as long as that takes.
 */

/** How long the API thread works on one answer before it lets others in. */
const SLICE_MS = 20;

/** Gives the event loop a turn once a slice of work has run since the last turn. */
export function breather(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/** JSON text made elsewhere (the tokenizer thread's), written into an answer as it is. */
export class RawJson {
  constructor(readonly json: string) {}
}

type Stringify = (value: unknown) => string;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(v) === Object.prototype;
/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

/** A string's JSON in pieces of about SLICE_CHARS characters each, never cut between the two halves of a pair. */
function* stringPieces(text: string, stringify: Stringify): Generator<string> {
  yield '"';
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + SLICE_CHARS, text.length);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end++;
    yield stringify(text.slice(at, end)).slice(1, -1);
    at = end;
  }
  yield '"';
}

/** The JSON of `value` as `stringify` writes it, in pieces: every string and number on its own, RawJson as it is. */
function* walk(value: unknown, stringify: Stringify): Generator<string> {
  if (value instanceof RawJson) yield value.json;
  else if (typeof value === "string" && value.length > SLICE_CHARS) yield* stringPieces(value, stringify);
  else if (Array.isArray(value)) {
    yield "[";
    for (const [i, v] of value.entries()) {
      if (i > 0) yield ",";
      if (omitted(v)) yield "null";
      else yield* walk(v, stringify);
    }
    yield "]";
  } else if (isPlainObject(value)) {
    let first = true;
    yield "{";
    for (const [k, v] of Object.entries(value)) {
      if (omitted(v)) continue;
      yield `${first ? "" : ","}${stringify(k)}:`;
      first = false;
      yield* walk(v, stringify);
    }
    yield "}";
  } else yield stringify(value);
}

/** Pieces of about this many characters: a longer string is a piece of its own, shorter ones are gathered. */
const PIECE_CHARS = 64 * 1024;
/** A string longer than this is written in slices this long: each slice's JSON and bytes are quick to make. */
const SLICE_CHARS = 1024 * 1024;

/**
 * The JSON of `value` (as `stringify` writes it: `JSON.stringify` or a script-safe variant), made lazily piece by
 * piece: each step turns at most one long string into JSON.
 */
export function* jsonPieces(value: unknown, stringify: Stringify = JSON.stringify): Generator<string> {
  let gathered = "";
  for (const piece of walk(value, stringify)) {
    if (piece.length >= PIECE_CHARS) {
      if (gathered) yield gathered;
      gathered = "";
      yield piece;
      continue;
    }
    gathered += piece;
    if (gathered.length >= PIECE_CHARS) {
      yield gathered;
      gathered = "";
    }
  }
  if (gathered) yield gathered;
}

/** All the pieces, made with breaks between them. */
export async function collectPieces(pieces: Iterable<string>): Promise<string[]> {
  const breathe = breather();
  const out: string[] = [];
  for (const piece of pieces) {
    out.push(piece);
    await breathe();
  }
  return out;
}

/** A response body that makes and encodes the pieces as it is read, with breaks between them. */
export function piecesBody(pieces: Iterable<string>): ReadableStream<Uint8Array> {
  const it = pieces[Symbol.iterator]();
  const utf8 = new TextEncoder();
  const breathe = breather();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await breathe();
      const next = it.next();
      if (next.done) controller.close();
      else controller.enqueue(utf8.encode(next.value));
    },
    cancel() {
      it.return?.();
    },
  });
}
