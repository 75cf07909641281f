/** The bench report's section on the agent-sized load (bench/agent-load.ts measures it). */
import type { AgentLoadBench, AgentLoadCase } from "./results";
import { f, ratio } from "./figures";

/** CPU per exchange of the recorder at most this many times the pass-through's, at the agent-sized load. */
export const AGENT_CPU_TARGET = 1.5;

export function agentLoadSection(b: AgentLoadBench | null | undefined): string[] {
  if (!b || b.cases.length === 0) return [];
  const rows = b.cases.map((c) => {
    const h = c.hopscope;
    return `| ${c.agent} \`${c.path}\` | ${f(c.bodyBytes / 1024)} KB | ${f(c.node.rps)} | ${f(h.rps)} | ${ratio(h.rps, c.node.rps)} | ${f(c.node.cpuMicros)} | ${f(h.cpuMicros)} | ${ratio(h.cpuMicros, c.node.cpuMicros)} | ${f(h.tapsMicros)} / ${f(h.recordingMicros)} (${f(h.recordingPerStoredMicros)} per stored) | ${h.stored} / ${h.answered} | ${h.notStored} | ${h.healthOk ? "ok" : "not ok"} | ${f(h.drainMs)} |`;
  });
  const checks = b.cases.flatMap((c) => {
    const h = c.hopscope;
    const x = h.cpuMicros / c.node.cpuMicros;
    const all = h.stored >= h.answered;
    return [
      `- ${all ? "✅" : "❌"} ${c.agent}: stored = answered: ${h.stored} stored complete for ${h.answered} answered${all ? "" : ` (${h.answered - h.stored} missing; health said ${h.healthOk ? "ok" : "not ok"}, ${h.notStored} counted as not stored)`}`,
      `- ${x <= AGENT_CPU_TARGET ? "✅" : "❌"} ${c.agent}: CPU per exchange ≤ ${AGENT_CPU_TARGET}× the pass-through's: ${f(x, 2)}×`,
      ...floorCheck(c),
    ];
  });
  return [
    "## Agent-sized load",
    "",
    `Each agent's largest recorded model request (tests/fixtures/agents/) sent through the model tap by ${b.connections} connections for ${f(b.seconds)} s, a canned SSE answer upstream; ${b.rounds} rounds alternating with the plain Node pass-through and with the floor (the same pass-through storing each exchange's bytes in SQLite, nothing else); medians, counts summed. hopscope's CPU is counted until it has committed everything the load sent; while it sheds exchanges it does not record, CPU per answered exchange understates what recording each costs, so the recording thread's CPU per exchange it stored is shown too.`,
    "",
    "| request | body | node req/s | hopscope req/s | × node | node CPU µs/req | hopscope CPU µs/exchange | × node | taps / recording thread µs per exchange | stored / answered | not stored (health) | health | drain ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    ...checks,
    "",
  ];
}

/** What storing every byte costs at the least: the floor beside the pass-through and hopscope. */
function floorCheck(c: AgentLoadCase): string[] {
  if (!c.floor) return [];
  const x = c.floor.cpuMicros / c.node.cpuMicros;
  return [
    `- ${c.agent}: the floor (pass-through + SQLite, storing nothing but the bytes) costs ${f(c.floor.cpuMicros)} µs CPU per exchange, ${f(x, 2)}× the pass-through's; hopscope costs ${f(c.hopscope.cpuMicros / c.floor.cpuMicros, 2)}× the floor's`,
  ];
}
