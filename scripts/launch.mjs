// `npm start`: the launcher as built (dist/start.js, see scripts/build/programs.ts), which rebuilds first
// whatever is older than its sources. The built launcher is trusted only while it is newer than everything it
// was built from (the "scripts" program's folders: scripts/, shared/src, nodekit/src): one built by older code,
// e.g. before a pull, could not be relied on to rebuild correctly. Otherwise, and before the first build, the
// launcher's sources run through tsx and build it for the next start.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isFresh } from "./build/freshness.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = new URL("../dist/start.js", import.meta.url);
const sources = ["scripts", "shared/src", "nodekit/src"].map((dir) => root + dir);
if (existsSync(built) && isFresh([fileURLToPath(built)], sources)) {
  await import(built.href);
} else {
  (await import("tsx/esm/api")).register();
  await import("./start.ts");
}
