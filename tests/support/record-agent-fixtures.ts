/**
 * Re-records tests/fixtures/agents/<agent>/: each pinned agent CLI asked the article's question against the
 * real stack (stand-in, notes MCP server, recorder with its taps, a stdio server through `wrap`), with a
 * plain pass-through in front of the model tap and the MCP tap keeping exactly what the agent sent and
 * got back: model-NN.json (one model request each), mcp.json (the HTTP MCP session), stdio.json (the
 * stdio server's exchanges as the recorder stored them) and run.json (command, exit, output, the traces
 * the recorder made of the run). Secrets are redacted; bodies are kept as they crossed the wire.
 *
 *   npx tsx tests/support/record-agent-fixtures.ts [claude-code|codex|opencode|qwen-code …]
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { AGENTS, ensureAgentClis, type Agent } from "./agent-clis";
import { recipeSimSettings } from "./agent-launch";
import { runAgent } from "./agent-run";
import { startRecorderStack } from "./recorder-stack";
import { startRecordingProxy, type RecordedExchange } from "./recording-proxy";

const QUESTION = "Add buy milk to my notes";
const OUT = fileURLToPath(new URL("../fixtures/agents/", import.meta.url));
const SECRET_HEADERS = /^(authorization|x-api-key|api-key|cookie|proxy-authorization)$/i;

async function record(agent: Agent): Promise<void> {
  const clis = await ensureAgentClis();
  const stack = await startRecorderStack({ sim: recipeSimSettings() });
  const model = await startRecordingProxy(stack.tapUrls.model);
  const mcp = await startRecordingProxy(stack.tapUrls.mcp);
  try {
    const run = await runAgent(agent, clis, {
      modelTap: model.url,
      mcpTap: mcp.url,
      recorder: stack.uiUrl,
      question: QUESTION,
      timeoutMs: 240_000,
    });
    await new Promise((r) => setTimeout(r, 1500));
    const dir = `${OUT}${agent}/`;
    const list = JSON.parse(await stack.api("/api/traces?limit=50")) as { traces: { id: string }[] };
    const traces = await Promise.all(
      list.traces.map(async (t) => JSON.parse(await stack.api(`/api/traces/${t.id}`)) as RecordedTrace),
    );
    const stdioExchanges = await Promise.all(
      traces
        .flatMap((t) => t.exchanges)
        .filter((e) => e.method === "STDIO")
        .map(async (e) => JSON.parse(await stack.api(`/api/exchanges/${e.id}`)) as unknown),
    );
    const recorded = traces.map((t) => ({
      name: t.name,
      groupedBy: t.groupedBy,
      exchanges: t.exchanges.map((e) => `${e.tap} ${e.method} ${e.url} ${e.status} ${e.state}`),
    }));
    // One file per model request: Claude Code's are ~90 KB each, and each stays whole.
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    for (const [i, e] of model.exchanges.entries()) {
      await writeFile(`${dir}model-${String(i + 1).padStart(2, "0")}.json`, json(redact(e)));
    }
    await writeFile(`${dir}mcp.json`, json(mcp.exchanges.map(redact)));
    await writeFile(`${dir}stdio.json`, json(stdioExchanges));
    await writeFile(
      `${dir}run.json`,
      json({
        question: QUESTION,
        command: [run.launch.command.replace(clis.dir, "<cache>"), ...run.launch.args],
        code: run.code,
        signal: run.signal,
        timedOut: run.timedOut,
        notes: await stack.readNotes(),
        traces: recorded,
        stdout: run.stdout.slice(-4000),
        stderr: run.stderr.slice(-8000),
      }),
    );
    process.stdout.write(
      `${agent}: exit ${run.code}, ${model.exchanges.length} model and ${mcp.exchanges.length} MCP requests, ` +
        `${stdioExchanges.length} stdio exchanges, notes ${JSON.stringify(await stack.readNotes())}\n`,
    );
  } finally {
    await model.close();
    await mcp.close();
    await stack.close();
  }
}

interface RecordedTrace {
  name: string;
  groupedBy: string;
  exchanges: { id: number; tap: string; state: string; method: string; url: string; status: number | null }[];
}

function redact(e: RecordedExchange): RecordedExchange {
  const headers = Object.fromEntries(
    Object.entries(e.headers).map(([k, v]) => [k, SECRET_HEADERS.test(k) ? "[redacted]" : v]),
  );
  return { ...e, headers };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

const wanted = process.argv.slice(2) as Agent[];
for (const agent of wanted.length > 0 ? wanted : AGENTS) {
  if (!AGENTS.includes(agent)) throw new Error(`unknown agent ${agent}: say one of ${AGENTS.join(", ")}`);
  await record(agent);
}
