/** Epoch milliseconds, fractional and monotonic within the process (timings of exchanges). */
export const nowEpoch = (): number => performance.timeOrigin + performance.now();
