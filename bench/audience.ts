/**
 * The audience view under a room's load: the recorder (apps/proxy main.ts as a child, with its audience
 * listener) while the presenter replays the article trace (a position every PUT_INTERVAL_MS for
 * REPLAY_SECONDS, as the presenter's UI publishes them), once with no viewer and once with VIEWERS
 * WebSocket viewers. Each viewer first reads what a viewer page reads (the trace, every exchange, the
 * views of each model chat), then follows. Measured: the recorder's CPU seconds and peak RSS in each run,
 * and whether every viewer saw the last hop. Measured once per `npm run bench`; the machine is shared.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { AudienceStatusSchema } from "@hopscope/shared/trace/audience";
import { startRecorder, type RecorderChild } from "./contenders/index";
import { treeCpuSeconds, treeRssMiB } from "./proc";
import type { AudienceBench, AudienceRun } from "./results";

const VIEWERS = 100;
const REPLAY_SECONDS = 10;
const PUT_INTERVAL_MS = 100;
const ARTICLE = join(import.meta.dirname, "..", "traces", "buy-milk.hopscope.json");

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** What a viewer's page reads when it follows the speaker into a trace. */
async function readLikeAViewer(joinUrl: string, traceId: string): Promise<void> {
  const trace = await json<{ exchanges: { id: number; classification: { kind: string } }[] }>(
    `${joinUrl}api/traces/${traceId}`,
  );
  for (const x of trace.exchanges) {
    await json(`${joinUrl}api/exchanges/${x.id}`);
    if (x.classification.kind === "model.chat") await json(`${joinUrl}api/exchanges/${x.id}/views`);
  }
}

/** Shows the trace once (so it may be read) before anything is measured. */
async function replayWarm(r: RecorderChild, traceId: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${r.uiPort}/api/audience/position`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ traceId, hop: 1, present: false, replay: null }),
  });
  if (res.status !== 204) throw new Error(`PUT /api/audience/position answered ${res.status}`);
}

async function replay(r: RecorderChild, traceId: string, viewers: number): Promise<AudienceRun> {
  const pid = r.pid;
  if (pid === null) throw new Error("the recorder has no pid");
  const api = `http://127.0.0.1:${r.uiPort}`;
  const put = (hop: number, cursor: number) =>
    fetch(`${api}/api/audience/position`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ traceId, hop, present: false, replay: { cursor, playing: true, speed: 1 } }),
    });
  await put(1, 0); // the trace is shown, so viewers may read it
  const status = AudienceStatusSchema.parse(await json(`${api}/api/audience`));
  if (status.state !== "open") throw new Error(`the audience view is ${status.state}`);
  const cpu0 = treeCpuSeconds(pid);
  const sockets = await Promise.all(
    Array.from({ length: viewers }, async () => {
      const ws = new WebSocket(`${status.joinUrl.replace(/^http/, "ws")}feed`);
      let last: number | null = null;
      ws.on("message", (d) => {
        const f = JSON.parse(String(d)) as { type: string; position?: { hop: number | null } };
        if (f.type === "position") last = f.position?.hop ?? null;
      });
      await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
      await readLikeAViewer(status.joinUrl, traceId);
      return { ws, last: () => last };
    }),
  );
  const cpuJoined = treeCpuSeconds(pid);
  let peak = treeRssMiB(pid);
  const steps = (REPLAY_SECONDS * 1000) / PUT_INTERVAL_MS;
  let hop = 1;
  for (let i = 1; i <= steps; i++) {
    hop = (i % 8) + 1;
    const res = await put(i === steps ? 8 : hop, i * PUT_INTERVAL_MS);
    if (res.status !== 204) throw new Error(`PUT /api/audience/position answered ${res.status}`);
    peak = Math.max(peak, treeRssMiB(pid));
    await new Promise((res) => setTimeout(res, PUT_INTERVAL_MS));
  }
  await new Promise((res) => setTimeout(res, 500));
  const cpuEnd = treeCpuSeconds(pid);
  const cpuSeconds = cpuEnd - cpu0;
  const followCpuSeconds = cpuEnd - cpuJoined;
  const sawLastHop = sockets.filter((s) => s.last() === 8).length;
  for (const s of sockets) s.ws.close();
  return { viewers, cpuSeconds, followCpuSeconds, peakRssMiB: peak, positions: steps, sawLastHop };
}

export async function runAudienceBench(
  upstreamPort: number,
  webDist: string,
  log: (s: string) => void,
): Promise<AudienceBench> {
  const r = await startRecorder(upstreamPort, { WEB_DIST: webDist, AUDIENCE_HOST: "127.0.0.1", AUDIENCE_PORT: "0" });
  try {
    const imported = await json<{ id: string }>(`http://127.0.0.1:${r.uiPort}/api/import`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: readFileSync(ARTICLE, "utf8"),
    });
    // Both runs start warm: the tokenizer and prompt engine loaded by one viewer-like read (unmeasured).
    await fetch(`http://127.0.0.1:${r.uiPort}/api/traces/${imported.id}`);
    const status = AudienceStatusSchema.parse(await json(`http://127.0.0.1:${r.uiPort}/api/audience`));
    if (status.state === "open") {
      await replayWarm(r, imported.id);
      await readLikeAViewer(status.joinUrl, imported.id);
    }
    log(`bench: audience: replaying the article trace for ${REPLAY_SECONDS} s, no viewer, then ${VIEWERS} viewers`);
    const none = await replay(r, imported.id, 0);
    const room = await replay(r, imported.id, VIEWERS);
    log(
      `bench: audience: recorder CPU ${none.cpuSeconds.toFixed(2)} s → ${room.cpuSeconds.toFixed(2)} s (following alone: ${none.followCpuSeconds.toFixed(2)} s → ${room.followCpuSeconds.toFixed(2)} s), peak RSS ${none.peakRssMiB.toFixed(0)} → ${room.peakRssMiB.toFixed(0)} MiB; ${room.sawLastHop}/${VIEWERS} saw the last hop`,
    );
    return { none, room, replaySeconds: REPLAY_SECONDS, putIntervalMs: PUT_INTERVAL_MS };
  } finally {
    await r.stop();
    r.cleanup();
  }
}
