/**
 * The notes file is plain UTF-8 text. JSON strings can still carry what UTF-8 cannot encode (lone
 * surrogates such as "\ud800") or binary (NUL); both are refused before anything is written.
 */

/** Why `text` cannot go into the notes file, or null when it can. */
export function textProblem(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return `it contains a NUL character (binary data) at position ${i}`;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return `it contains an unpaired UTF-16 surrogate at position ${i} (not encodable as UTF-8)`;
    }
    if (c >= 0xdc00 && c <= 0xdfff)
      return `it contains an unpaired UTF-16 surrogate at position ${i} (not encodable as UTF-8)`;
  }
  return null;
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }); // keep a BOM: we rewrite what we read

/** Decode bytes read from disk; throws a clear error when they are not UTF-8 text. */
export function decodeNotes(bytes: Uint8Array, path: string): string {
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    throw new NotesError(`the notes file ${path} is not valid UTF-8 text; fix or clear it (the clear tool empties it)`);
  }
  if (text.includes("\u0000")) {
    throw new NotesError(
      `the notes file ${path} contains binary data (NUL bytes); fix or clear it (the clear tool empties it)`,
    );
  }
  return text;
}

/** An error the tool reports to the model as `isError: true` (the file is fine, the call was not). */
export class NotesError extends Error {
  override name = "NotesError";
}
