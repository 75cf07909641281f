/**
 * Serves the built timeline (WEB_DIST) at `/`: files by path, `index.html` for any other path (the UI
 * routes on the client), and a plain page saying how to build it when it is not built.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
};

const NOT_BUILT = (dir: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hopscope: UI not built</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}code{background:#eee;padding:.1em .3em}</style></head>
<body><h1>The hopscope timeline is not built yet</h1>
<p>The recorder is running (taps, <code>/api</code> and <code>/ws</code> work), but there is no UI in <code>${escapeHtml(dir)}</code>.</p>
<p>Build it with <code>npm run build -w apps/web</code>, then reload this page.</p></body></html>`;

export function staticRoutes(webDist: string) {
  const root = path.resolve(webDist);
  return new Hono().get("*", async (c) => {
    let rel: string;
    try {
      rel = decodeURIComponent(c.req.path).replace(/^\/+/, "");
    } catch (err) {
      throw new HTTPException(400, { message: `the path ${c.req.path} is not valid percent-encoding`, cause: err });
    }
    const file = path.resolve(root, rel);
    // Never serve outside the dist folder ("/../../etc/passwd").
    const inside = file === root || file.startsWith(root + path.sep);
    const target = inside && (await isFile(file)) ? file : path.join(root, "index.html");
    if (!(await isFile(target))) return c.html(NOT_BUILT(root), 503);
    const type = TYPES[path.extname(target)] ?? "application/octet-stream";
    const cache = target.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache";
    return c.body(await readFile(target), 200, {
      "Content-Type": type,
      "Cache-Control": cache,
      "X-Content-Type-Options": "nosniff",
    });
  });
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR")
      return false;
    throw err;
  }
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
