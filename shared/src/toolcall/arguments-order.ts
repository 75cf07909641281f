/**
 * Key order of tool-call arguments in Ollama's responses. The parser (./parser.ts) keeps the order the model
 * wrote. On the wire:
 * - up to v0.13.x the arguments are a Go `map[string]any`, and `json.Marshal` sorts map keys at every level;
 * - from v0.14 the top level is an ordered map filled by ranging over a Go map, so its order is random per
 *   request, while nested objects are still maps and still sorted.
 * `sortedArguments` gives the v0.13 order, which is also the nested order of every version.
 */

/** Go sorts map keys by their UTF-8 bytes, which is code point order (not JS's UTF-16 unit order). */
export function compareGoStrings(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const diff = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value).sort(compareGoStrings);
  // fromEntries defines own properties, so a "__proto__" key stays data, not a prototype.
  return Object.fromEntries(keys.map((key) => [key, sortDeep((value as Record<string, unknown>)[key])]));
}

/**
 * A copy of `args` with keys sorted at every level, as Ollama <= 0.13.5 marshals them. JS objects list
 * integer-like keys ("0", "42") first whatever the insertion order, so such keys cannot be ordered either way.
 *
 * @example Object.keys(sortedArguments({ unit: "c", location: "Paris" })) // ["location", "unit"]
 */
export function sortedArguments<T extends Record<string, unknown>>(args: T): T {
  return sortDeep(args) as T;
}
