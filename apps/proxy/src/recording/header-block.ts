/**
 * Header fields as tap events carry them across threads: one string, "Name: value\r\n" per field, names,
 * order and repeats as received. Structured cloning one string costs far less than cloning an array of
 * pairs (measured: about a third per exchange); the recording thread turns it back into pairs.
 *
 * Unambiguous because llhttp (tap/llhttp.ts) refuses CR and LF inside names and values, names are tokens
 * (no ':'), and values have no leading white space; values are latin1 strings of their bytes either way.
 */

/** From Node's raw form ([name, value, name, value, …]). */
export function toHeaderBlock(flat: readonly string[]): string {
  let out = "";
  for (let i = 0; i + 1 < flat.length; i += 2) out += `${flat[i]}: ${flat[i + 1]}\r\n`;
  return out;
}

export function fromHeaderBlock(block: string): [string, string][] {
  const out: [string, string][] = [];
  let at = 0;
  while (at < block.length) {
    const end = block.indexOf("\r\n", at);
    const colon = block.indexOf(": ", at);
    out.push([block.slice(at, colon), block.slice(colon + 2, end)]);
    at = end + 2;
  }
  return out;
}
