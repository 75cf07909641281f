/**
 * docker-compose.yml and the Dockerfile cannot be run on CI (no Docker engine), so they are checked here:
 * Debian's docker-compose validates the file against the Compose schema (`config` needs no engine), and the
 * structure the README promises is asserted on the resolved configuration.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const rootScripts = () =>
  (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

function composeConfig(...args: string[]): string {
  return execFileSync("docker-compose", ["-f", join(root, "docker-compose.yml"), ...args, "config"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, MODEL_UPSTREAM: "" },
  });
}

describe("docker-compose.yml", () => {
  it("is valid Compose, with the stand-in model only under the sim profile", () => {
    const resolved = composeConfig("--profile", "sim");
    const services = resolved
      .match(/^  (\S+):$/gm)
      ?.map((l) => l.trim().slice(0, -1))
      .sort();
    expect(services).toEqual(["host", "mcp-server", "model-sim", "proxy"]);
    const sim = resolved.split(/\n  (?=\S)/).find((b) => b.startsWith("model-sim:"));
    expect(sim).toMatch(/profiles:\s*\n\s*- sim/);
    for (const other of ["mcp-server:", "proxy:", "host:"]) {
      expect(resolved.split(/\n  (?=\S)/).find((b) => b.startsWith(other))).not.toContain("profiles:");
    }
  });

  it("publishes the UI on 7070, keeps data on volumes under ./data, and health-checks every service", () => {
    const resolved = composeConfig("--profile", "sim");
    expect(resolved).toMatch(/published: 7070|7070:7070/);
    for (const service of ["mcp-server", "proxy", "host", "model-sim"]) {
      const block = resolved.split(/\n  (?=\S)/).find((b) => b.startsWith(`${service}:`));
      expect(block, `service ${service}`).toBeDefined();
      expect(block, `${service} healthcheck`).toContain("healthcheck:");
    }
    expect(resolved).toMatch(/\/data:\/app\/data/);
    expect(resolved).toContain("host.docker.internal:host-gateway");
  });

  it("builds from the repository alone: npm ci from the lock file, every workspace manifest copied", () => {
    const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
    expect(dockerfile).toMatch(/RUN npm ci\b/);
    expect(dockerfile).not.toMatch(/npm install\b/);
    const apps = readdirSync(join(root, "apps")).filter((a) => existsSync(join(root, "apps", a, "package.json")));
    for (const app of apps) expect(dockerfile).toContain(`COPY apps/${app}/package.json`);
    for (const pkg of ["shared", "nodekit"]) expect(dockerfile).toContain(`COPY ${pkg}/package.json`);
    expect(existsSync(join(root, "package-lock.json"))).toBe(true);
  });

  it("runs each service as built: plain node on the bundle the Dockerfile's npm run build writes", () => {
    const resolved = composeConfig("--profile", "sim");
    expect(readFileSync(join(root, "Dockerfile"), "utf8")).toMatch(/RUN npm run build\n/);
    expect(rootScripts().build).toBeDefined();
    for (const service of ["mcp-server", "proxy", "host", "model-sim"]) {
      const block = resolved.split(/\n  (?=\S)/).find((b) => b.startsWith(`${service}:`)) ?? "";
      expect(block, service).toMatch(new RegExp(`command:\\s*\\n\\s+- node\\n\\s+- apps/${service}/dist/main\\.js\\n`));
    }
  });

  it("lets each service accept the service names the others reach it by (ALLOWED_HOSTS), and only those", () => {
    const resolved = composeConfig("--profile", "sim");
    const block = (name: string) => resolved.split(/\n  (?=\S)/).find((b) => b.startsWith(`${name}:`)) ?? "";
    const env = (name: string, key: string) =>
      new RegExp(`\\n\\s+${key}: (.+)`).exec(block(name))?.[1]?.trim().replace(/^"|"$/g, "");
    const allowed = (name: string) => (env(name, "ALLOWED_HOSTS") ?? "").split(",");
    const hostOf = (url: string | undefined) => new URL(url ?? "http://missing").host;
    expect(allowed("mcp-server")).toContain(hostOf(env("proxy", "MCP_UPSTREAM")));
    expect(allowed("host")).toContain(hostOf(env("proxy", "AGENT_UPSTREAM")));
    expect(allowed("proxy")).toEqual(
      expect.arrayContaining([hostOf(env("host", "OLLAMA_URL")), hostOf(env("host", "MCP_URL"))]),
    );
    expect(allowed("model-sim")).toContain("model-sim:11435");
  });
});

describe("docker-compose.yml and the notes file", () => {
  it("the recorder watches the MCP server's own notes file, on the shared ./data volume", () => {
    const blocks = composeConfig().split(/\n  (?=\S)/);
    for (const name of ["mcp-server:", "proxy:"]) {
      const block = blocks.find((b) => b.startsWith(name)) ?? "";
      expect(block).toMatch(/NOTES_FILE: \/app\/data\/db/);
      expect(block).toMatch(/\/data:\/app\/data(:rw)?$/m);
    }
  });
});
