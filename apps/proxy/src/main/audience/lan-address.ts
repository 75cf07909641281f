/**
 * `AUDIENCE_HOST=auto` (what `npm start -- --audience` sets): the machine's first non-internal IPv4
 * address, the one laptops on the same network reach. No such address is an error that says what to do.
 */
import { networkInterfaces } from "node:os";

export function lanAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  throw new Error(
    "no network address found for the audience view: connect to the room's network, or name one with --audience-host ADDR (AUDIENCE_HOST)",
  );
}

/** The address to bind: `auto` becomes the LAN address; anything else is used as named. */
export function audienceBindHost(named: string): string {
  return named === "auto" ? lanAddress() : named;
}

/** The address to print in the join URL: a wildcard bind (0.0.0.0, ::) is reached at the LAN address. */
export function audienceUrlHost(bound: string): string {
  if (bound !== "0.0.0.0" && bound !== "::") return bound;
  try {
    return lanAddress();
  } catch {
    return bound; // no network address: the URL says what was bound, and the room cannot reach it anyway
  }
}
