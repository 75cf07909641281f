/** Epoch milliseconds, fractional and monotonic within the process: the times the tap stamps on frames. */
export const nowEpoch = (): number => performance.timeOrigin + performance.now();
