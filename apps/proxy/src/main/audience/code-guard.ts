/**
 * Wrong join codes on the audience port, counted per client address: an address that sends more than
 * `perWindow` wrong codes within `windowMs` is refused everything (a right code included, so guessing
 * teaches nothing) for `blockMs`. The totals are the presenter's to see (`GET /api/audience`).
 */

export interface CodeGuardLimits {
  perWindow: number;
  windowMs: number;
  blockMs: number;
  /** Addresses remembered at once; past it the oldest is forgotten (a room is a few hundred at most). */
  maxAddresses: number;
}

export const DEFAULT_CODE_GUARD: CodeGuardLimits = {
  perWindow: 10,
  windowMs: 60_000,
  blockMs: 60_000,
  maxAddresses: 10_000,
};

interface AddressState {
  since: number;
  wrong: number;
  blockedUntil: number;
}

export interface WrongCodeStats {
  /** Requests refused for a wrong or missing code since the view opened. */
  refused: number;
  /** Addresses refused everything right now. */
  blocked: number;
  /** When the last wrong code came (epoch ms), or null. */
  lastAt: number | null;
}

export class WrongCodeGuard {
  private readonly addresses = new Map<string, AddressState>();
  private refused = 0;
  private lastAt: number | null = null;

  constructor(private readonly limits: CodeGuardLimits = DEFAULT_CODE_GUARD) {}

  /** True while `address` is refused everything. */
  blocked(address: string, now = Date.now()): boolean {
    return (this.addresses.get(address)?.blockedUntil ?? 0) > now;
  }

  /** Counts a wrong or missing code from `address`; blocks it past the limit. */
  wrong(address: string, now = Date.now()): void {
    this.refused++;
    this.lastAt = now;
    let state = this.addresses.get(address);
    if (!state || now - state.since > this.limits.windowMs) {
      this.addresses.delete(address);
      state = { since: now, wrong: 0, blockedUntil: state?.blockedUntil ?? 0 };
      this.addresses.set(address, state);
      if (this.addresses.size > this.limits.maxAddresses) this.forgetOldest();
    }
    state.wrong++;
    if (state.wrong > this.limits.perWindow) state.blockedUntil = now + this.limits.blockMs;
  }

  stats(now = Date.now()): WrongCodeStats {
    let blocked = 0;
    for (const s of this.addresses.values()) if (s.blockedUntil > now) blocked++;
    return { refused: this.refused, blocked, lastAt: this.lastAt };
  }

  private forgetOldest(): void {
    const oldest = this.addresses.keys().next().value;
    if (oldest !== undefined) this.addresses.delete(oldest);
  }
}
