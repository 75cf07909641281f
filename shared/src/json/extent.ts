/**
 * Smallest and largest of any number of values. `Math.min(...values)` passes each value as an argument, and
 * past about a hundred thousand (a large import's exchanges) that overflows the stack; these loop instead.
 * Like Math.min/Math.max, an empty list gives Infinity / -Infinity.
 */
export function minOf(values: Iterable<number>): number {
  let min = Infinity;
  for (const v of values) if (v < min) min = v;
  return min;
}

export function maxOf(values: Iterable<number>): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return max;
}

/** Appends `items` to `list` one by one (a spread into push overflows the stack on large lists). */
export function appendAll<T>(list: T[], items: Iterable<T>): void {
  for (const item of items) list.push(item);
}
