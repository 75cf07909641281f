import { describe, expect, it } from "vitest";
import { hopFor, numberHops } from "../src/models/hops";
import { articleTrace, exchange } from "./fixtures";

describe("numberHops", () => {
  it("numbers the article's trace 1–8 with the lanes of Part 4", () => {
    const hops = numberHops(articleTrace());
    expect(hops.map((h) => [h.number, h.kind])).toEqual([
      [1, "agent-request"],
      [2, "mcp"],
      [3, "model-request"],
      [4, "model-response"],
      [5, "mcp"],
      [6, "model-request"],
      [7, "model-response"],
      [8, "agent-response"],
    ]);
    expect(hops.map((h) => h.arrows.map((a) => `${a.from}>${a.to}`).join(","))).toEqual([
      "you>host",
      "host>mcp,mcp>host",
      "host>model",
      "model>host",
      "host>mcp,mcp>host",
      "host>model",
      "model>host",
      "host>you",
    ]);
  });

  it("keeps numbers stable while the trace is still live", () => {
    const [agent, list, chat1] = articleTrace();
    const live = [
      { ...agent!, state: "pending" as const, timings: { ...agent!.timings, end: null, firstByte: null } },
      list!,
      { ...chat1!, state: "pending" as const, timings: { ...chat1!.timings, end: null, firstByte: null } },
    ];
    const hops = numberHops(live);
    expect(hops.map((h) => h.number)).toEqual([1, 2, 3]);
    expect(hops[2]!.arrows).toHaveLength(1);
  });

  it("shows a streaming response arrow from its first byte, marked in progress", () => {
    const chat = exchange(
      {
        tap: "model",
        state: "streaming",
        classification: { kind: "model.chat", messageCount: 1, toolCount: 0, stream: true, toolCalls: [] },
      },
      0,
      null,
    );
    const streaming = { ...chat, state: "streaming" as const, timings: { ...chat.timings, firstByte: 7 } };
    const hops = numberHops([streaming]);
    expect(hops.map((h) => h.kind)).toEqual(["model-request", "model-response"]);
    expect(hops[1]!.arrows[0]).toMatchObject({ direction: "response", at: 7, inProgress: true });
  });

  it("draws a stdio server's own lines from the MCP lane, and one arrow for a message without an answer", () => {
    const stdio = { method: "STDIO", upstream: "stdio: node notes.js", status: null } as const;
    const call = exchange(
      {
        ...stdio,
        url: "stdin",
        chunkCount: 1,
        tap: "mcp",
        classification: { kind: "mcp", method: "tools/call", toolName: "append", outcome: "ok" },
      },
      0,
      5,
    );
    const note = exchange(
      {
        ...stdio,
        url: "stdin",
        tap: "mcp",
        classification: { kind: "mcp", method: "notifications/initialized", outcome: "notification" },
      },
      6,
      6,
    );
    const log = exchange({ ...stdio, url: "stderr", tap: "mcp", classification: { kind: "other" } }, 7, 7);
    const [h1, h2, h3] = numberHops([call, note, log]);
    expect(h1!.arrows.map((a) => [a.from, a.to])).toEqual([
      ["host", "mcp"],
      ["mcp", "host"],
    ]);
    expect(h2!.arrows.map((a) => [a.from, a.to])).toEqual([["host", "mcp"]]);
    expect(h3!.arrows.map((a) => [a.from, a.to])).toEqual([["mcp", "host"]]);
  });

  it("finds the hop of each side of an exchange", () => {
    const xs = articleTrace();
    const hops = numberHops(xs);
    expect(hopFor(hops, xs[2]!.id, "response")?.number).toBe(4);
    expect(hopFor(hops, xs[3]!.id, "response")?.number).toBe(5);
    expect(hopFor(hops, xs[0]!.id, "response")?.number).toBe(8);
  });
});

describe("route", () => {
  it("round-trips trace, hop and presenter mode through the hash", async () => {
    const { formatRoute, parseRoute } = await import("../src/models/route");
    const r = { traceId: "4bf92f35 77b3", hop: 5, present: true };
    expect(formatRoute(r)).toBe("#/trace/4bf92f35%2077b3/hop/5/present");
    expect(parseRoute(formatRoute(r))).toEqual(r);
    expect(parseRoute("#/trace/abc")).toEqual({ traceId: "abc", hop: null, present: false });
    expect(parseRoute("#/nonsense")).toEqual({ traceId: null, hop: null, present: false });
  });
});
