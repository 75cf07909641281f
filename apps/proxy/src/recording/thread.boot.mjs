// The recording thread's entry: a worker does not inherit the main thread's TypeScript loader, so it
// registers tsx itself and then loads thread.ts.
import { register } from "tsx/esm/api";

register();
await import("./thread.ts");
