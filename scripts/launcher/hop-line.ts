/**
 * One compact terminal line per recorded hop, for people who live in the terminal, numbered like the timeline:
 *   3–4  host → model   POST /api/chat  1 msg · 5 tools  ⇒ tool_calls: append        212 ms
 */
import { formatHopNumber, type HopNumber } from "@hopscope/shared/trace/hop-numbers";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";

const ROUTE: Record<ExchangeSummary["tap"], string> = {
  agent: "you  → host ",
  model: "host → model",
  mcp: "host → mcp  ",
};

function clip(s: string, max: number): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function what(ex: ExchangeSummary): string {
  const c = ex.classification;
  switch (c.kind) {
    case "agent":
      return c.reply !== undefined
        ? `"${clip(c.message ?? "", 40)}" ⇒ "${clip(c.reply, 50)}"`
        : `"${clip(c.message ?? "", 60)}"`;
    case "model.chat": {
      const sent = `${c.messageCount} msg${c.messageCount === 1 ? "" : "s"} · ${c.toolCount} tool${c.toolCount === 1 ? "" : "s"}`;
      const got =
        c.toolCalls.length > 0
          ? `tool_calls: ${c.toolCalls.map((t) => t.name).join(", ")}`
          : `"${clip(c.content ?? "", 50)}"`;
      return `${sent}  ⇒ ${got}`;
    }
    case "model.other":
      return c.endpoint;
    case "mcp": {
      const head = [c.method ?? "?", c.toolName].filter(Boolean).join(" ");
      if (c.outcome === "protocol-error")
        return `${head}  ⇒ protocol error ${c.errorCode ?? ""} ${clip(c.errorMessage ?? "", 40)}`;
      if (c.outcome === "tool-error") return `${head}  ⇒ tool error: ${clip(c.resultText ?? "", 50)}`;
      return c.resultText !== undefined ? `${head}  ⇒ ${clip(c.resultText, 50)}` : head;
    }
    case "other":
      return "";
  }
}

export function formatHopLine(ex: ExchangeSummary, n: HopNumber | undefined): string {
  const ms = ex.timings.end !== null ? `${Math.round(ex.timings.end - ex.timings.start)} ms` : "";
  const status = ex.error ? `✗ ${clip(ex.error, 60)}` : ex.status !== null && ex.status >= 400 ? `${ex.status}` : "";
  const path = ex.url.split("?")[0] ?? ex.url;
  const parts = [
    formatHopNumber(n).padStart(5),
    ROUTE[ex.tap],
    `${ex.method} ${path}`.padEnd(18),
    what(ex),
    status,
    ms.padStart(8),
  ];
  return parts.filter((p) => p !== "").join("  ");
}
