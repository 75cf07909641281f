import { describe, expect, it } from "vitest";
import { z } from "zod";
import { port, positiveInt, readConfig } from "../src/config";

const Schema = z
  .object({ UI_PORT: port("UI_PORT", 7070), MAX: positiveInt("MAX", 5) })
  .transform((e) => ({ uiPort: e.UI_PORT, max: e.MAX }));

describe("readConfig", () => {
  it("an empty value counts as unset: the default applies (UI_PORT= is 7070, UI_PORT=0 a free port)", () => {
    expect(readConfig("test", Schema, { UI_PORT: "" })).toEqual({ uiPort: 7070, max: 5 });
    expect(readConfig("test", Schema, { UI_PORT: "0" })).toEqual({ uiPort: 0, max: 5 });
  });

  it("reads only its own variables", () => {
    expect(readConfig("test", Schema, { UI_PORT: "9000", OTHER: "x" })).toEqual({ uiPort: 9000, max: 5 });
  });

  it("names every bad variable with its value and what is allowed, in one message", () => {
    expect(() => readConfig("test", Schema, { UI_PORT: "70700", MAX: "-1" })).toThrow(
      'invalid test configuration (see the Configuration table in README.md):\n  UI_PORT="70700": UI_PORT must be between 0 and 65535\n  MAX="-1": MAX must be a positive integer',
    );
  });

  it("is the format every app uses", async () => {
    const { loadConfig: host } = await import("../../apps/host/src/config");
    const { loadConfig: mcp } = await import("../../apps/mcp-server/src/config");
    const { loadConfig: sim } = await import("../../apps/model-sim/src/sim/config");
    const { loadConfig: recorder } = await import("../../apps/proxy/src/config");
    const { loadLauncherConfig } = await import("../../scripts/launcher/config");
    for (const [app, load] of [
      ["host", host],
      ["mcp-server", mcp],
      ["model-sim", sim],
      ["recorder", recorder],
      ["launcher", loadLauncherConfig],
    ] as const) {
      expect(() => load({ HOST: "127.0.0.1", PORT: "x", UI_PORT: "x", ALLOWED_HOSTS: "a/b" }), app).toThrow(
        new RegExp(`^invalid ${app} configuration`),
      );
    }
    expect(recorder({ UI_PORT: "" }).uiPort).toBe(7070);
    expect(loadLauncherConfig({ UI_PORT: "" }).UI_PORT).toBe(7070);
  });
});
