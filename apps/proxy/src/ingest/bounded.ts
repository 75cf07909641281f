/** Bound on remembered per-trace entries (oldest forgotten first), as the recorder keeps its own. */
const MAX_ENTRIES = 2000;

/** Sets `key` as the newest entry of `map`, forgetting the oldest past the bound. */
export function trim<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
}
