/**
 * The `id` Ollama (v0.13.0+) gives each parsed tool call: `toolCallId()` in server/routes.go, "call_" and
 * eight characters drawn from [a-z0-9] with math/rand. Before v0.13 `/api/chat` calls had no id.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** A uniform random number in [0, 1), like Math.random; injectable so tests get fixed ids. */
export type RandomSource = () => number;

/**
 * @example toolCallId() // "call_k3v9x0qa"
 * @example toolCallId(() => 0) === "call_aaaaaaaa"
 */
export function toolCallId(random: RandomSource = Math.random): string {
  let id = "call_";
  for (let i = 0; i < 8; i++) {
    const r = random();
    if (!(r >= 0 && r < 1))
      throw new RangeError(`toolCallId: the random source returned ${r}; it must return a number in [0, 1)`);
    id += ALPHABET[Math.floor(r * ALPHABET.length)];
  }
  return id;
}
