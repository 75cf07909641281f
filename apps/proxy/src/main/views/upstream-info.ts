/**
 * What the model upstream is: the hopscope stand-in (it sets `x-hopscope-simulated: 1`) or a real
 * Ollama, and its version (`GET /api/version`). Probed lazily and cached briefly, so the UI's
 * `/api/config` and the prompt views do not hit the model server on every request.
 */
import { SIMULATED_HEADER, SIMULATED_VERSION_HEADER, VersionResponseSchema } from "@hopscope/shared/ollama/schemas";
import type { Exchange } from "@hopscope/shared/trace/schemas";
import type { Logger } from "../../logger";
import { headerValue } from "@hopscope/shared/trace/json-text";

export interface UpstreamInfo {
  reachable: boolean;
  simulated: boolean | null;
  version: string | null;
}

const TTL_MS = 10_000;
const PROBE_TIMEOUT_MS = 2_000;

export class ModelUpstreamProbe {
  private cached: { at: number; info: Promise<UpstreamInfo> } | null = null;

  constructor(
    private readonly upstream: string,
    private readonly logger: Logger,
  ) {}

  get(): Promise<UpstreamInfo> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > TTL_MS) this.cached = { at: now, info: this.probe() };
    return this.cached.info;
  }

  private async probe(): Promise<UpstreamInfo> {
    try {
      const res = await fetch(`${this.upstream}/api/version`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      const simulated = res.headers.get(SIMULATED_HEADER) === "1";
      const parsed = VersionResponseSchema.safeParse(await res.json());
      return { reachable: true, simulated, version: parsed.success ? parsed.data.version : null };
    } catch (err) {
      // Not reachable (or not an Ollama): reported as unknown, not an error; the UI shows "model server down".
      this.logger.warn({ upstream: this.upstream, err: (err as Error).message }, "model upstream probe failed");
      return { reachable: false, simulated: null, version: null };
    }
  }
}

/**
 * The Ollama version an exchange was answered as, when the answer says so: the stand-in names the version it
 * imitated on every response, so a trace recorded as 0.13.5 keeps its family when replayed next to today's.
 * A real Ollama does not say; then the upstream's current version is the best guess.
 */
export function recordedVersion(ex: Pick<Exchange, "responseHeaders">): string | null {
  return headerValue(ex.responseHeaders, SIMULATED_VERSION_HEADER) ?? null;
}
