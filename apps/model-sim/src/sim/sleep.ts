/**
 * A delay that a client disconnect can cut short (the generation stops, as Ollama's does). It waits at
 * least `ms` by the monotonic clock: Node timers count from the event loop's cached time and can fire a
 * little early, and the durations model-sim reports must never be shorter than the delay it simulates.
 */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return;
  const deadline = performance.now() + ms;
  for (let left = ms; left > 0; left = deadline - performance.now()) await timer(Math.ceil(left), signal);
}

function timer(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
