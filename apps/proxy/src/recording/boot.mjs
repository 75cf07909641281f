// Entry of hopscope's worker threads: a worker does not inherit the main thread's TypeScript loader, so it
// registers tsx itself and then loads the thread's module (workerData.entry, relative to this file).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(new URL(workerData.entry, import.meta.url).href);
