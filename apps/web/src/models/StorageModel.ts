/**
 * Whether the recorder is storing what it forwards (`storage` of GET /api/health), polled: a full disk, a
 * read-only or locked database, or a recorder that fell behind never stops the taps, so the only place a
 * learner would notice is here. `dismissed` hides the notice about a past failure (not a current one).
 */
import { computed, signal } from "@preact/signals";
import { HealthSchema, type StorageHealth } from "@hopscope/shared/trace/api";
import { getJson } from "../api/http";

export const STORAGE_POLL_MS = 3000;

export class StorageModel {
  readonly health = signal<StorageHealth | null>(null);
  /** notStored count the user dismissed the notice at (a new loss shows it again). */
  readonly dismissedAt = signal<number | null>(null);
  readonly error = signal<string | null>(null);
  private timer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private started = false;

  readonly notice = computed<"failing" | "recovered" | null>(() => {
    const h = this.health.value;
    if (!h) return null;
    if (!h.ok) return "failing";
    return h.notStored > 0 && this.dismissedAt.value !== h.notStored ? "recovered" : null;
  });

  /** Starts polling (once): the app that shows the banner does; a shared page or the audience never asks. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    void this.poll();
  }

  dismiss(): void {
    this.dismissedAt.value = this.health.value?.notStored ?? null;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  private async poll(): Promise<void> {
    try {
      this.health.value = (await getJson("/api/health", HealthSchema)).storage ?? null;
      this.error.value = null;
    } catch (err) {
      // The connection indicator already says when the recorder is unreachable; keep the last answer.
      this.error.value = err instanceof Error ? err.message : String(err);
    }
    if (!this.disposed) this.timer = setTimeout(() => void this.poll(), STORAGE_POLL_MS);
  }
}

/** " The last at 14:03:22." (local time) when the recorder says when it last lost one. */
export function lastLossAt(at: number | null | undefined): string {
  if (!at) return "";
  const d = new Date(at);
  const t = [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
  return ` The last at ${t}.`;
}
