import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startRecorder } from "./contenders/index";
import { load, MCP_BODY } from "./measure";
import { startUpstream } from "./start-upstream";
import { summariseProfile } from "./profile";
const dir = "/tmp/core-prof2";
const up = await startUpstream();
const r = await startRecorder(up.port, {}, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
const url = `http://127.0.0.1:${r.mcpPort}/mcp`;
await load({ url, body: MCP_BODY, connections: 16, seconds: 5, pid: r.pid });
await new Promise((x) => setTimeout(x, 2000));
await r.stop(); r.cleanup(); up.stop();
for (const f of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile") && Number(f.split(".")[4]) > 1)) {
  const p = JSON.parse(readFileSync(join(dir, f), "utf8"));
  const s = summariseProfile(p, ["handle", "finish", "assignTrace", "classify", "classifyExchange", "tryParseJson", "flush", "insertBatch", "rowParams", "exchangeRecord", "requestClassification", "group", "summary", "stringify", "postMessage", "(garbage collector)", "maxSeq", "setRequest", "redactHeaders", "announce", "deserialize"]);
  console.log(f);
  for (const x of s.topSelf) console.log(x.percent.toFixed(1).padStart(5), x.name);
  for (const x of s.steps) console.log("incl", x.percent.toFixed(1).padStart(5), x.name);
}
