// Entry of hopscope's worker threads: a worker does not inherit the main thread's TypeScript loader, so it
// registers tsx itself and then loads the thread's module (workerData.entry, relative to this file).
// On Linux the thread is named (workerData.threadName) so that per-thread CPU in /proc tells the taps from
// the recording thread (the bench reports them apart).
import { existsSync, writeFileSync } from "node:fs";
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

if (workerData.threadName && existsSync("/proc/thread-self/comm"))
  writeFileSync("/proc/thread-self/comm", workerData.threadName);
register();
await import(new URL(workerData.entry, import.meta.url).href);
