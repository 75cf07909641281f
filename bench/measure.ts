/**
 * One measurement of one contender: load (autocannon), CPU per request of the proxy's process tree, added
 * latency at one connection, and streaming (time to first NDJSON line, spacing of lines) idle and under load.
 */
import autocannon from "autocannon";
import { treeCpuSeconds } from "./proc";

export const MCP_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: {
    name: "append",
    arguments: { content: "buy milk" },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
export const CHAT_BODY = JSON.stringify({
  model: "qwen2.5:7b",
  messages: [{ role: "user", content: "Add buy milk to my notes" }],
  stream: false,
  keep_alive: "30m",
});

export interface LoadResult {
  rps: number;
  latencyP50: number;
  latencyP99: number;
  requests: number;
  errors: number;
  cpuMicrosPerRequest: number | null;
}

export async function load(opts: {
  url: string;
  body: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  pid: number | null;
}): Promise<LoadResult> {
  const cpuBefore = opts.pid ? treeCpuSeconds(opts.pid) : 0;
  const result = await autocannon({
    url: opts.url,
    method: "POST",
    body: opts.body,
    headers: { "content-type": "application/json", ...opts.headers },
    connections: opts.connections,
    duration: opts.seconds,
    pipelining: 1,
  });
  const cpuAfter = opts.pid ? treeCpuSeconds(opts.pid) : 0;
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    requests,
    errors: result.errors + result.non2xx,
    cpuMicrosPerRequest: opts.pid && requests > 0 ? ((cpuAfter - cpuBefore) * 1e6) / requests : null,
  };
}

export interface StreamResult {
  firstLineMs: number;
  /** Median gap between consecutive lines as received (the upstream sends them `interval` ms apart). */
  medianGapMs: number;
  /** Largest gap: a proxy that buffers shows one huge gap (or a first line at the very end). */
  maxGapMs: number;
  lines: number;
}

/** Reads a slow NDJSON stream and records when each line arrives. */
export async function stream(url: string, lines: number, intervalMs: number): Promise<StreamResult> {
  const t0 = performance.now();
  const res = await fetch(`${url}?lines=${lines}&interval=${intervalMs}`, { method: "POST", body: "{}" });
  if (!res.body) throw new Error("no body");
  const arrivals: number[] = [];
  let buffered = "";
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      buffered = buffered.slice(nl + 1);
      arrivals.push(performance.now() - t0);
    }
  }
  const gaps = arrivals
    .slice(1)
    .map((t, i) => t - (arrivals[i] ?? 0))
    .sort((a, b) => a - b);
  return {
    firstLineMs: arrivals[0] ?? Number.NaN,
    medianGapMs: gaps[Math.floor(gaps.length / 2)] ?? Number.NaN,
    maxGapMs: gaps[gaps.length - 1] ?? Number.NaN,
    lines: arrivals.length,
  };
}

export function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}
