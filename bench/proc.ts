/**
 * CPU time and peak memory of a process tree, read from /proc (Linux). A proxy may be several processes
 * (nginx master + worker), so the whole tree under the pid we started is counted.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

function stat(pid: number): { ppid: number; cpuTicks: number } | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // the process ended between listing and reading: it no longer counts
  }
}

export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (!s) continue;
    children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** Seconds of CPU (user + system) used so far by the tree. */
export function treeCpuSeconds(root: number): number {
  return processTree(root).reduce((sum, pid) => sum + (stat(pid)?.cpuTicks ?? 0), 0) / CLK_TCK;
}

/** Peak resident memory (VmHWM) of the tree, in MiB. */
export function treePeakRssMiB(root: number): number {
  let kib = 0;
  for (const pid of processTree(root)) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kib += Number(m?.[1] ?? 0);
    } catch {
      // ended meanwhile: nothing to add
    }
  }
  return kib / 1024;
}

/** Current resident memory (VmRSS) of the tree, in MiB. */
export function treeRssMiB(root: number): number {
  let kib = 0;
  for (const pid of processTree(root)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kib += Number(m?.[1] ?? 0);
    } catch {
      // ended meanwhile: nothing to add
    }
  }
  return kib / 1024;
}

/**
 * CPU seconds per thread of one process, by thread name (`comm`; hopscope names its workers hs-taps and
 * hs-recording): user + system time, or with `system` the kernel's part alone.
 */
export function threadCpuSeconds(pid: number, which: "all" | "system" = "all"): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // the process is gone: nothing to count
  }
  for (const tid of tids) {
    try {
      const raw = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const comm = raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")"));
      const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
      const name = tid === String(pid) ? "main" : comm;
      const ticks = (which === "system" ? 0 : Number(fields[11])) + Number(fields[12]);
      out.set(name, (out.get(name) ?? 0) + ticks / CLK_TCK);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return out;
}
