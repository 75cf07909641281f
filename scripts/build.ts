/**
 * `npm run build`: builds what `npm start` runs, where it is stale — the apps and the CLI bundled into their
 * dist/ folders (scripts/build/programs.ts) and the timeline UI (apps/web/dist). `npm start` does the same
 * on its own; this is for an image (the Dockerfile) or a checkout that should start at once.
 */
import { ensureBuilt } from "./build/programs";
import { ensureUiBuilt } from "./launcher/build-ui";
import { REPO_ROOT } from "./build/programs";

const say = (line: string) => process.stdout.write(`${line}\n`);
try {
  const built = await ensureBuilt(undefined, { log: say });
  const ui = ensureUiBuilt(REPO_ROOT, say);
  if (built.length === 0 && !ui) say("everything is built and current");
} catch (err) {
  process.stderr.write(`hopscope build: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
