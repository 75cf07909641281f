// Entry of hopscope's worker threads: loads the thread's module (workerData.entry, a URL). Run from source,
// that module is TypeScript and a worker does not inherit the main thread's loader, so it registers tsx
// first; the built proxy (dist/) names the thread's bundled .js and needs no loader.
// On Linux the thread is named (workerData.threadName) so that per-thread CPU in /proc tells the taps from
// the recording thread (the bench reports them apart).
import { existsSync, writeFileSync } from "node:fs";
import { workerData } from "node:worker_threads";

if (workerData.threadName && existsSync("/proc/thread-self/comm"))
  writeFileSync("/proc/thread-self/comm", workerData.threadName);
const entry = new URL(workerData.entry, import.meta.url);
if (entry.pathname.endsWith(".ts")) (await import("tsx/esm/api")).register();
await import(entry.href);
