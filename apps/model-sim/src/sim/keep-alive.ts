/**
 * `keep_alive` as Ollama reads it (api.Duration.UnmarshalJSON): a number is seconds, a string is a Go
 * duration ("30m", "1h30m", "300ms"); a negative value keeps the model loaded forever; absent means
 * the server default, 5 minutes.
 */
import { OllamaError } from "./ollama-error";

export const DEFAULT_KEEP_ALIVE_MS = 5 * 60_000;

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration, in milliseconds. */
function parseGoDuration(text: string): number | null {
  if (text === "0" || text === "+0" || text === "-0") return 0;
  const m = /^([-+]?)((?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.exec(text);
  if (!m) return null;
  let total = 0;
  for (const part of m[2]!.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g))
    total += Number(part[1]) * UNIT_MS[part[2]!]!;
  return m[1] === "-" ? -total : total;
}

/** Milliseconds to stay loaded (Infinity = forever), or throws the 400 Ollama sends for a bad value. */
export function keepAliveMs(value: number | string | undefined): number {
  if (value === undefined) return DEFAULT_KEEP_ALIVE_MS;
  const ms = typeof value === "number" ? value * 1000 : parseGoDuration(value);
  if (ms === null) throw new OllamaError(400, `time: invalid duration ${JSON.stringify(value)}`);
  return ms < 0 ? Infinity : ms;
}
