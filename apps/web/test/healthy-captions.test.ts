/**
 * Healthy means healthy: what an agent's ordinary run looks like is never painted as a failure — a
 * refusal is a refusal (with the server's words), never a cut stream; a -32601 to an optional probe is
 * "not offered"; a stdio server stopped by its host ended normally; stdio lines are named as stdio.
 */
import { describe, expect, it } from "vitest";
import type { ExchangeSummary } from "@hopscope/shared/trace/schemas";
import { arrowLabel, captionFor } from "../src/models/captions";
import type { Hop } from "../src/models/hops";
import { outcomeOf } from "../src/models/outcome";
import { streamState, wasCut } from "../src/models/stream-state";
import { exchange } from "./fixtures";

const hop = (kind: Hop["kind"], x: ExchangeSummary): Hop => ({ number: 2, kind, exchangeId: x.id, arrows: [], at: 0 });

describe("a refusal is not a cut stream", () => {
  const refused = exchange(
    {
      tap: "model",
      url: "/v1/messages",
      status: 400,
      classification: {
        kind: "model.chat",
        messageCount: 1,
        toolCount: 3,
        stream: true,
        toolCalls: [],
        refusal: '"qwen2.5:7b" does not support thinking',
      },
    },
    1000,
    1040,
  );

  it("is captioned with the server's message", () => {
    expect(wasCut(refused)).toBe(false);
    const st = streamState({ x: refused, text: null, tokens: 0, ended: true, now: 2000 });
    expect(st.kind).toBe("done");
    const c = captionFor(hop("model-response", refused), refused, refused.id, st);
    expect(c.title).toBe("The model server refused the request (400)");
    expect(c.text).toContain('"qwen2.5:7b" does not support thinking');
    expect(`${c.title} ${c.text}`).not.toMatch(/stream was cut|tokens arrived/);
  });

  it("a stream that ended without its final event is still cut", () => {
    const cut = { ...refused, status: 200, state: "aborted" as const };
    expect(wasCut(cut)).toBe(true);
  });
});

describe("optional MCP probes", () => {
  const probe = exchange(
    {
      tap: "mcp",
      classification: {
        kind: "mcp",
        method: "prompts/list",
        jsonrpcId: 3,
        outcome: "not-offered",
        errorCode: -32601,
        errorMessage: "Method not found",
      },
    },
    0,
    5,
  );

  it("a -32601 to prompts/list is ok, captioned as not offered", () => {
    expect(outcomeOf(probe)).toBe("ok");
    expect(captionFor(hop("mcp", probe), probe, undefined).title).toBe("Not offered by this server: prompts/list");
    expect(arrowLabel(hop("mcp", probe), probe, "response")).toBe("not offered (-32601)");
  });

  it("a -32601 to tools/call stays a protocol error", () => {
    const call = {
      ...probe,
      classification: { ...probe.classification, method: "tools/call", outcome: "protocol-error" as const },
    };
    expect(outcomeOf(call)).toBe("protocol-error");
  });
});

describe("stdio messages are named as stdio", () => {
  const stdio = (url: string, over: Partial<ExchangeSummary> = {}) =>
    exchange(
      {
        tap: "mcp",
        method: "STDIO",
        url,
        upstream: "stdio: node notes.js",
        classification: { kind: "other" },
        ...over,
      },
      0,
      1,
    );

  it("a stderr line and a host's stop are captioned as such, not as POST /mcp", () => {
    const stderr = captionFor(hop("mcp", stdio("stderr")), stdio("stderr"), undefined);
    expect(stderr.title).toBe("The stdio server writes to its stderr");
    expect(arrowLabel(hop("mcp", stdio("stderr")), stdio("stderr"), "request")).toBe("stderr");
    expect(arrowLabel(hop("mcp", stdio("exit")), stdio("exit"), "request")).toBe("the server ends");
    const exit = captionFor(hop("mcp", stdio("exit")), stdio("exit"), undefined);
    expect(exit.title).toBe("The stdio server ended");
    const message = stdio("stdin", { classification: { kind: "mcp", method: "initialize", outcome: "ok" } });
    expect(captionFor(hop("mcp", message), message, undefined).text).toContain("stdio server's pipes");
    expect(captionFor(hop("mcp", message), message, undefined).text).not.toContain("POST /mcp");
  });
});
