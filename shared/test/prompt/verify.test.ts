/**
 * verifyAgainstOllama over real HTTP. The server here stands in for an Ollama (an external program, not one of
 * ours): it answers /api/version, /api/show and /api/chat with `_debug_render_only` the way Ollama does.
 */
import { readFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { QWEN25_SYSTEM, QWEN25_TEMPLATE } from "@hopscope/shared/prompt/qwen25";
import { verifyAgainstOllama } from "@hopscope/shared/prompt/verify";

const dir = join(import.meta.dirname, "fixtures");
const req = JSON.parse(readFileSync(join(dir, "requests", "article-turn2.json"), "utf8"));
const golden = (v: string): string => readFileSync(join(dir, "golden", `article-turn2.${v}.txt`), "utf8");

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function fakeOllama(version: string, rendered: string): Promise<{ url: string; seen: unknown[] }> {
  const seen: unknown[] = [];
  server = createServer((rq, rs) => {
    let body = "";
    rq.on("data", (c) => (body += c));
    rq.on("end", () => {
      rs.setHeader("content-type", "application/json; charset=utf-8");
      if (rq.url === "/api/version") return rs.end(JSON.stringify({ version }));
      if (rq.url === "/api/show") return rs.end(JSON.stringify({ template: QWEN25_TEMPLATE, system: QWEN25_SYSTEM }));
      if (rq.url === "/api/chat") {
        seen.push(JSON.parse(body));
        return rs.end(
          JSON.stringify({
            model: "qwen2.5:7b",
            created_at: new Date().toISOString(),
            message: { role: "", content: "" },
            done: false,
            _debug_info: { rendered_template: rendered },
          }),
        );
      }
      rs.statusCode = 404;
      rs.end(JSON.stringify({ error: "not found" }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

describe("verifyAgainstOllama", () => {
  it.each(["0.13.5", "0.14.0"])("matches Ollama %s byte for byte and asks for the debug render", async (v) => {
    const { url, seen } = await fakeOllama(v, golden(v));
    const r = await verifyAgainstOllama(url, req);
    expect(r).toMatchObject({ match: true, firstDifference: null, ollamaVersion: v });
    expect(r.ours).toBe(r.server);
    expect(seen[0]).toMatchObject({ _debug_render_only: true, stream: false, model: "qwen2.5:7b" });
  });
  it("reports the first differing character", async () => {
    const text = golden("0.13.5");
    const { url } = await fakeOllama("0.13.5", text.replace('"buy milk"}', '"buy  milk"}'));
    const r = await verifyAgainstOllama(url, req);
    expect(r.match).toBe(false);
    // `"buy milk"` vs `"buy  milk"`: equal up to the space, then "m" against " ".
    expect(r.firstDifference).toBe(text.indexOf('"buy milk"}') + 5);
  });
  it("refuses servers older than 0.11.5", async () => {
    const { url } = await fakeOllama("0.11.4", "");
    await expect(verifyAgainstOllama(url, req)).rejects.toThrow(/0\.11\.5 or newer/);
  });
  it("says clearly when Ollama cannot be reached", async () => {
    const { url } = await fakeOllama("0.13.5", "");
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    await expect(verifyAgainstOllama(url, req)).rejects.toThrow(/cannot reach Ollama/);
  });
});
