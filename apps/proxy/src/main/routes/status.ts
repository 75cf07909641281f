/** `/api/health` and `/api/config`: where the taps are, and what the model upstream is. */
import { Hono } from "hono";
import type { AppConfig, Health, StorageHealth } from "@hopscope/shared/trace/api";
import type { Tap } from "@hopscope/shared/trace/schemas";
import type { ModelUpstreamProbe } from "../views/upstream-info";
import type { RecordingLink } from "../../link/calls";
import type { LiveFeed } from "../live/feed";

export interface TapInfo {
  port: number;
  upstream: string;
  url: string;
}

export interface StatusDeps {
  taps: Record<Tap, TapInfo>;
  probe: ModelUpstreamProbe;
  link: RecordingLink;
  feed: LiveFeed;
  /** Whether recording reaches the disk. */
  storage: () => StorageHealth;
}

export function healthRoutes(deps: StatusDeps) {
  return new Hono().get("/", (c) => {
    const storage = deps.storage();
    // ok: everything forwarded is stored. Not while storing fails, nor once anything forwarded went unstored
    // (storage.ok says whether storing works now; notStored counts what was lost, until a restart).
    return c.json({
      ok: storage.ok && storage.notStored === 0,
      taps: deps.taps,
      live: { clients: deps.feed.clientCount, seq: deps.feed.currentSeq },
      storage,
    } satisfies Health);
  });
}

export function configRoutes(deps: StatusDeps) {
  return new Hono().get("/", async (c) => {
    const info = await deps.probe.get();
    const body: AppConfig = {
      agentTapUrl: deps.taps.agent.url,
      modelTapUrl: deps.taps.model.url,
      mcpTapUrl: deps.taps.mcp.url,
      simulated: info.simulated,
      lesson: await deps.link.call("lastLesson"),
      ollamaVersion: info.version,
    };
    return c.json(body);
  });
}
