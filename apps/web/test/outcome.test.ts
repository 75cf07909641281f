import { describe, expect, it } from "vitest";
import { outcomeOf } from "../src/models/outcome";
import { exchange } from "./fixtures";

const mcp = (outcome: "ok" | "tool-error" | "protocol-error" | "http-error") =>
  exchange({ tap: "mcp", classification: { kind: "mcp", method: "tools/call", toolName: "append", outcome } }, 0, 5);

describe("outcomeOf", () => {
  it("tells a tool error (for the model) from a protocol error (for the developer)", () => {
    expect(outcomeOf(mcp("tool-error"))).toBe("tool-error");
    expect(outcomeOf(mcp("protocol-error"))).toBe("protocol-error");
    expect(outcomeOf(mcp("ok"))).toBe("ok");
    expect(outcomeOf(mcp("http-error"))).toBe("error");
  });

  it("marks failed exchanges and HTTP errors as errors, unfinished ones as pending", () => {
    const chat = exchange(
      {
        tap: "model",
        classification: { kind: "model.chat", messageCount: 1, toolCount: 0, stream: false, toolCalls: [] },
      },
      0,
      5,
    );
    expect(outcomeOf({ ...chat, status: 500 })).toBe("error");
    expect(outcomeOf({ ...chat, state: "error", error: "the upstream closed the connection" })).toBe("error");
    expect(outcomeOf({ ...chat, state: "pending", status: null })).toBe("pending");
    expect(outcomeOf(chat)).toBe("ok");
  });
});
