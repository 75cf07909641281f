/**
 * JSON text as Go's `encoding/json` writes it, which is how Ollama marshals every response: compact, keys
 * in the order the value has them (build objects in Go struct order), and HTML-safe escaping of `<`, `>`,
 * `&`, U+2028 and U+2029. The escaping matters: a recorded Ollama body containing `<tool_call>` reads
 * `\u003ctool_call\u003e` on the wire, and a stand-in must produce the same bytes.
 */

const GO_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * `json.Marshal(value)` for plain JSON values. The five characters only ever occur inside string
 * literals of JSON.stringify's output, so replacing them everywhere is safe.
 *
 * @example goJson({ content: "<b>" }) === '{"content":"\\u003cb\\u003e"}'
 */
export function goJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error("goJson: value is not representable as JSON (undefined or a function)");
  return text.replace(/[<>&\u2028\u2029]/g, (ch) => GO_ESCAPES[ch] ?? ch);
}
