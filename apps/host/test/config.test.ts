import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    expect(loadConfig({})).toEqual({
      port: 8081,
      host: "127.0.0.1",
      allowedHosts: [],
      ollamaUrl: "http://127.0.0.1:11434",
      model: "qwen2.5:7b",
      keepAlive: "30m",
      mcpUrl: "http://127.0.0.1:8080/mcp",
      maxSteps: 5,
      stream: false,
      dialect: "ollama",
      lesson: null,
    });
  });

  it("reads every variable", () => {
    const c = loadConfig({
      PORT: "9000",
      HOST: "0.0.0.0",
      ALLOWED_HOSTS: "host:8081",
      OLLAMA_URL: "http://127.0.0.1:11435/",
      OLLAMA_MODEL: "qwen2.5:3b",
      OLLAMA_KEEP_ALIVE: "-1",
      MCP_URL: "http://127.0.0.1:7072/mcp",
      AGENT_MAX_STEPS: "3",
      AGENT_STREAM: "true",
      AGENT_LESSON: "loop",
      AGENT_DIALECT: "openai",
    });
    expect(c).toEqual({
      port: 9000,
      host: "0.0.0.0",
      allowedHosts: ["host:8081"],
      ollamaUrl: "http://127.0.0.1:11435",
      model: "qwen2.5:3b",
      keepAlive: -1,
      mcpUrl: "http://127.0.0.1:7072/mcp",
      maxSteps: 3,
      stream: true,
      dialect: "openai",
      lesson: "loop",
    });
  });

  it("names each bad variable, its value and what is allowed", () => {
    expect(() =>
      loadConfig({ PORT: "80800", OLLAMA_URL: "localhost:11434", AGENT_STREAM: "yes", AGENT_MAX_STEPS: "0" }),
    ).toThrow(
      /PORT="80800": PORT must be between 0 and 65535[\s\S]*OLLAMA_URL="localhost:11434": OLLAMA_URL must be an http[\s\S]*AGENT_MAX_STEPS="0": AGENT_MAX_STEPS must be at least 1[\s\S]*AGENT_STREAM="yes": AGENT_STREAM must be true or false/,
    );
  });
});

describe("AGENT_DIALECT", () => {
  it("takes ollama, openai or anthropic and names the choices otherwise", () => {
    expect(loadConfig({ AGENT_DIALECT: "anthropic" }).dialect).toBe("anthropic");
    expect(() => loadConfig({ AGENT_DIALECT: "gemini" })).toThrow(
      /AGENT_DIALECT="gemini": AGENT_DIALECT must be ollama, openai or anthropic/,
    );
  });
});

describe("AGENT_LESSON", () => {
  it("accepts the stand-in's lessons and rejects a typo with the list", () => {
    expect(loadConfig({ AGENT_LESSON: "missing-argument" }).lesson).toBe("missing-argument");
    expect(loadConfig({ AGENT_LESSON: " " }).lesson).toBeNull();
    expect(() => loadConfig({ AGENT_LESSON: "loops" })).toThrow(
      /AGENT_LESSON="loops": unknown lesson "loops": use one of write-instead-of-append, .*loop, slow/,
    );
  });
});
