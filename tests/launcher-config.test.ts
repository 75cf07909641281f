/**
 * The launcher checks AGENT_LESSON before it starts anything (found from outside: a typo surfaced as the
 * agent host's crash, with a stack trace, after the MCP server had started).
 */
import { describe, expect, it } from "vitest";
import { loadLauncherConfig } from "../scripts/launcher/config";

describe("the launcher's AGENT_LESSON", () => {
  it("refuses an unknown lesson, naming the ones there are", () => {
    expect(() => loadLauncherConfig({ AGENT_LESSON: "write-instead-of-apend" })).toThrow(
      /AGENT_LESSON="write-instead-of-apend": unknown lesson "write-instead-of-apend": use one of write-instead-of-append, missing-argument, unknown-tool, loop, slow/,
    );
  });

  it("takes a lesson, and none (unset or empty)", () => {
    expect(loadLauncherConfig({ AGENT_LESSON: "loop" }).AGENT_LESSON).toBe("loop");
    expect(loadLauncherConfig({}).AGENT_LESSON).toBeUndefined();
    expect(loadLauncherConfig({ AGENT_LESSON: "" }).AGENT_LESSON).toBeUndefined();
  });
});
