import { describe, expect, it } from "vitest";
import { factsOf } from "../src/models/trace-groups";
import { arrowLabel, captionFor } from "../src/models/captions";
import type { Hop } from "../src/models/hops";
import { isNoStreamAnswer, outcomeOf } from "../src/models/outcome";
import { exchange } from "./fixtures";

// Found from outside: the MCP Inspector's session (and every SDK client's) was listed as "error", its GET hop
// marked ERROR in red, because the server answered the client's optional GET /mcp with 405.
describe("an MCP GET answered 405 (the server offers no stream)", () => {
  const get = (status: number) => ({
    ...exchange({ tap: "mcp", classification: { kind: "other" } }, 0, 1),
    method: "GET",
    url: "/mcp",
    status,
  });
  const init = exchange({ tap: "mcp", classification: { kind: "mcp", method: "initialize", outcome: "ok" } }, 0, 2);

  it("is not an error, and a session with it has no error", () => {
    expect(isNoStreamAnswer(get(405))).toBe(true);
    expect(outcomeOf(get(405))).toBe("ok");
    expect(factsOf([init, get(405)]).outcome).toBe("answered");
  });

  it("while other failures still are", () => {
    expect(outcomeOf(get(500))).toBe("error");
    expect(outcomeOf({ ...get(405), tap: "model", url: "/api/chat" })).toBe("error");
    expect(outcomeOf({ ...get(405), method: "POST" })).toBe("error");
  });

  it("is captioned as what it is, not as a JSON-RPC message", () => {
    const x = get(405);
    const hop: Hop = { number: 3, kind: "mcp", exchangeId: x.id, arrows: [], at: 0 };
    expect(captionFor(hop, x, undefined)).toMatchObject({
      title: "The client offers to listen; the server has no stream",
    });
    expect(captionFor(hop, x, undefined).text).toContain("405 Method Not Allowed");
    expect(arrowLabel(hop, x, "response")).toBe("405 · no stream");
  });
});
