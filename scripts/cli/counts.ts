/**
 * How the CLI counts a trace, in the UI's words: a trace's rows are HTTP exchanges (request + response
 * pairs; a model call is one exchange and two of the article's hops), so "5 hops" for the article's trace
 * contradicted the UI's "8 hops · 5 HTTP exchanges".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export const exchangesText = (n: number): string => plural(n, "exchange");
