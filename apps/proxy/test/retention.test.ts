/**
 * Retention (MAX_TRACES): the database keeps at most the cap of traces, dropping the least recently updated
 * unsaved ones, their exchanges with them; saved traces stay; live clients are told with trace.deleted.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TraceListSchema } from "@hopscope/shared/trace/api";
import {
  FeedClient,
  closeAll,
  getJson,
  request,
  startRecorder,
  startUpstream,
  type TestRecorder,
  type Upstream,
} from "./helpers";

let rec: TestRecorder | null = null;
let up: Upstream | null = null;
let feed: FeedClient | null = null;
afterEach(() => closeAll(feed?.ws, rec, up));

// tools/list from clients without traceparent, each on its own connection with its own User-Agent: each call
// is an MCP session, a trace of its own (docs/recorder.md, "MCP sessions").
const list = (i: number) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list", params: {} });

async function listTraces(r: TestRecorder) {
  return TraceListSchema.parse((await getJson(`${r.url}/api/traces?limit=100`)).body).traces;
}

describe("retention", () => {
  it("keeps the newest MAX_TRACES traces and every saved one, and announces the pruned ones", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [] } }));
    });
    rec = await startRecorder({ mcp: up.url }, { maxTraces: 3 });
    const send = async (i: number) => {
      const r = await request(`${rec!.taps.mcp.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": `client-${i}`, connection: "close" },
        body: list(i),
      });
      expect(r.status).toBe(200);
    };
    await send(1);
    const [first] = await listTraces(rec);
    expect(first).toBeDefined();
    const saved = await getJson<{ savedAs: string }>(`${rec.url}/api/traces/${first!.id}/save`, { method: "POST" });
    expect(saved.status).toBe(200);

    feed = new FeedClient(rec.wsUrl, { origin: rec.url });
    await feed.until((f) => f.some((x) => x.type === "snapshot"), "the snapshot");
    // One at a time, so "least recently updated" is well defined.
    for (let i = 2; i <= 7; i++) await send(i);

    const remaining = await listTraces(rec);
    expect(remaining).toHaveLength(3);
    expect(remaining.map((t) => t.id)).toContain(first!.id);
    const exchangeIds = await Promise.all(
      remaining.map(
        async (t) => (await getJson<{ exchanges: unknown[] }>(`${rec!.url}/api/traces/${t.id}`)).body.exchanges.length,
      ),
    );
    expect(exchangeIds).toEqual([1, 1, 1]);
    await feed.until(
      (f) => f.filter((x) => x.type === "trace.deleted").length >= 4,
      "trace.deleted for the 4 pruned traces",
    );
  });

  it("keeps everything when MAX_TRACES is 0", async () => {
    up = await startUpstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools: [] } }));
    });
    rec = await startRecorder({ mcp: up.url }, { maxTraces: 0 });
    for (let i = 1; i <= 5; i++) {
      await request(`${rec.taps.mcp.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": `client-${i}`, connection: "close" },
        body: list(i),
      });
    }
    expect(await listTraces(rec)).toHaveLength(5);
  });
});
