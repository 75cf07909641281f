/**
 * Vite config of the timeline. `npm run dev -w apps/web` serves it with hot reload and proxies the
 * recorder's API and WebSocket (apps/proxy on UI_PORT, default 7070) so the browser sees one origin;
 * `npm run build -w apps/web` writes static files to apps/web/dist, which apps/proxy serves; then
 * vite.share.config.ts adds dist/share.html (the HTML export's page) and vite.audience.config.ts
 * dist/audience/ (the audience viewer).
 * JSX is compiled by Vite's own oxc transform for Preact's automatic runtime (no Babel plugin).
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
// An empty UI_PORT is unset, as in every config reader (nodekit/config): the default, never port 0.
const uiPort = Number(process.env.UI_PORT || 7070);

export default defineConfig({
  root,
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: fileURLToPath(new URL("./dist", import.meta.url)), emptyOutDir: true, sourcemap: true },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/api": { target: `http://127.0.0.1:${uiPort}` },
      "/ws": { target: `ws://127.0.0.1:${uiPort}`, ws: true },
    },
  },
});
