/**
 * Whether the simulated model is "in memory", as Ollama's scheduler tracks it: a cold request pays a
 * load (really waited, so `load_duration` is a measurement), `keep_alive` sets when it is unloaded, and
 * `/api/ps` lists it while loaded.
 */
import { sleep } from "./sleep";

export class ModelState {
  private expiresAt: number | null = null;

  /** Make sure the model is loaded, waiting `loadMs` if it is cold (or `always` for the slow lesson). */
  async ensureLoaded(
    keepAliveMs: number,
    loadMs: number,
    opts: { always?: boolean; signal?: AbortSignal } = {},
  ): Promise<void> {
    const warm = this.expiresAt !== null && Date.now() < this.expiresAt;
    if (!warm || opts.always) await sleep(loadMs, opts.signal);
    this.touch(keepAliveMs);
  }

  /** Restart the keep-alive timer, as Ollama does when a request finishes. */
  touch(keepAliveMs: number): void {
    this.expiresAt = keepAliveMs === Infinity ? Infinity : Date.now() + keepAliveMs;
    if (keepAliveMs === 0) this.expiresAt = null;
  }

  unload(): void {
    this.expiresAt = null;
  }

  /** Milliseconds until unload, or null when not loaded. */
  remainingMs(): number | null {
    if (this.expiresAt === null || Date.now() >= this.expiresAt) return null;
    return this.expiresAt - Date.now();
  }
}
