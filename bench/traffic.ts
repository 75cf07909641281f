/**
 * Traffic for the timeline and soak benches: JSON POSTs over a keep-alive agent, sent at a steady rate
 * (not as fast as possible), so "N per second for S seconds" means exactly that many requests.
 */
import { Agent, request } from "node:http";

export const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });

/** POSTs `body` and resolves with the status once the whole response has been read. */
export function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent: keepAlive,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export interface PacedResult {
  sent: number;
  ok: number;
  errors: number;
  /** The first failure's message (a status other than 2xx, or a network error), null when none. */
  firstError: string | null;
  /** Seconds from the first send to the last answer. */
  elapsed: number;
}

/**
 * Calls `send(i)` `ratePerSecond` times a second for `seconds`, catching up after a late timer tick, with at
 * most `maxInFlight` outstanding (beyond that the rate drops rather than queueing without bound).
 */
export async function paced(opts: {
  ratePerSecond: number;
  seconds: number;
  maxInFlight?: number;
  send: (i: number) => Promise<number>;
  onTick?: (sent: number) => void;
}): Promise<PacedResult> {
  const total = Math.round(opts.ratePerSecond * opts.seconds);
  const maxInFlight = opts.maxInFlight ?? 256;
  let sent = 0;
  let ok = 0;
  let errors = 0;
  let inFlight = 0;
  let firstError: string | null = null;
  const pending = new Set<Promise<void>>();
  const t0 = performance.now();
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * opts.ratePerSecond) + 1);
    while (sent < due && inFlight < maxInFlight) {
      const i = sent++;
      inFlight++;
      const p: Promise<void> = opts
        .send(i)
        .then(
          (status) => {
            if (status >= 200 && status < 300) ok++;
            else {
              errors++;
              firstError ??= `request ${i} answered ${status}`;
            }
          },
          (err: unknown) => {
            // Counted and reported (the run's figures say how many failed); one message is enough to diagnose.
            errors++;
            firstError ??= `request ${i} failed: ${err instanceof Error ? err.message : String(err)}`;
          },
        )
        .finally(() => {
          inFlight--;
          pending.delete(p);
        });
      pending.add(p);
    }
    opts.onTick?.(sent);
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(pending);
  return { sent, ok, errors, firstError, elapsed: (performance.now() - t0) / 1000 };
}
