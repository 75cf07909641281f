// `npm start`: the launcher as built (dist/start.js, see scripts/build/programs.ts), which rebuilds first
// whatever is older than its sources, itself included. Before the first build there is none: the launcher's
// sources then run through tsx, and build it for the next start.
import { existsSync } from "node:fs";

const built = new URL("../dist/start.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  (await import("tsx/esm/api")).register();
  await import("./start.ts");
}
