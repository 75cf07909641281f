/**
 * The third build of the timeline: the audience viewer (audience.html, src/audience/main.tsx) into
 * dist/audience/, served by the recorder's audience listener under `/j/<code>/`. Its own build, so that
 * src/api/no-eval.ts, first in the entry chunk, runs before any zod schema is built (the viewer's policy
 * allows no eval); a chunk shared with the live UI would build schemas first. The tokenizer stays a lazy
 * chunk of its own, as in the live UI.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("./dist/audience", import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: { input: fileURLToPath(new URL("./audience.html", import.meta.url)) },
  },
});
