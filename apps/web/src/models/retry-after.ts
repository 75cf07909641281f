/**
 * When a failed load may be tried again. Views ask for an exchange on every frame and every render, so
 * a load that failed (a 404 for an exchange not stored yet, a recorder restarting) would otherwise be sent
 * again at once, hundreds of times a second; each failure doubles the wait, from 500 ms up to 30 s.
 */
export const FIRST_RETRY_MS = 500;
export const LAST_RETRY_MS = 30_000;

export interface Failure {
  /** Failures in a row so far (1 for the first). */
  failures: number;
  /** Not to be tried before this time (ms since the epoch). */
  retryAt: number;
}

export function afterFailure(previous: Failure | null, now: number): Failure {
  const failures = (previous?.failures ?? 0) + 1;
  return { failures, retryAt: now + Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1)) };
}

export function mayRetry(f: Failure, now: number): boolean {
  return now >= f.retryAt;
}
