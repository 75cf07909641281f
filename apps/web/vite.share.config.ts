/**
 * The second build of the timeline: the shared trace page (share.html, src/share/main.tsx) as ONE
 * self-contained HTML template, `dist/share.html`, which the recorder fills with a trace for
 * `hopscope export <id> --format html`. Run after the main build (it writes into the same dist/).
 */
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

/**
 * The plugin: inlines the page's one script and
 * its styles into the HTML, adds a Content-Security-Policy that allows exactly that script and that
 * style (by hash) and no network request at all. share.html itself holds the data element and title
 * placeholders the recorder fills at export (SHARED_TRACE_PLACEHOLDERS, apps/proxy/src/export/html.ts). The result is one file that works
 * from `file://`. Written here rather than taken from vite-plugin-singlefile because the hashes must
 * be of the exact inlined text, and the plugin must refuse output it cannot inline safely.
 */
function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** Script text that cannot end or re-mode its `<script>` element; refuses what it cannot make safe. */
function scriptSafe(code: string): string {
  const safe = code.replace(/<\/(script)/gi, "<\\/$1");
  const bad = /<!--|<script/i.exec(safe);
  if (bad)
    throw new Error(
      `inline-page: the bundled script contains <!-- or <script, which cannot be inlined safely; find the string in the bundle and split it: …${safe.slice(Math.max(0, bad.index - 80), bad.index + 40)}…`,
    );
  return safe;
}

function inlinePage(): Plugin {
  return {
    name: "hopscope-inline-page",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find((f) => f.type === "asset" && f.fileName.endsWith(".html"));
      if (!html || html.type !== "asset") throw new Error("inline-page: no HTML page in the build");
      const chunks = Object.values(bundle).filter((f) => f.type === "chunk");
      if (chunks.length !== 1 || chunks[0]?.type !== "chunk")
        throw new Error(
          `inline-page: expected one script chunk, got ${chunks.length}; remove dynamic imports from the share entry`,
        );
      const css = Object.values(bundle).filter((f) => f.type === "asset" && f.fileName.endsWith(".css"));
      // With one chunk, Vite leaves its preload marker on the (now inlined) dynamic imports: no deps to preload.
      const script = scriptSafe(chunks[0].code.replaceAll("__VITE_PRELOAD__", "void 0"));
      const style = css.map((f) => (f.type === "asset" ? String(f.source) : "")).join("\n");
      if (/<\/style/i.test(style)) throw new Error("inline-page: the styles contain </style");
      const csp = [
        "default-src 'none'",
        `script-src ${sha256(script)}`,
        `style-src ${sha256(style)}`,
        "img-src data:",
        "font-src data:",
        "base-uri 'none'",
        "form-action 'none'",
      ].join("; ");
      let page = String(html.source)
        .replace(/<script type="module"[^>]*\ssrc="[^"]*"[^>]*><\/script>\s*/g, "")
        .replace(/<link rel="stylesheet"[^>]*>\s*/g, "")
        .replace(/<link rel="modulepreload"[^>]*>\s*/g, "");
      if (/<script[^>]*\ssrc=|<link rel="stylesheet"/.test(page))
        throw new Error("inline-page: the page still references a script or stylesheet after inlining");
      page = page
        .replace(
          /<meta charset="utf-8" \/>/,
          (m) => `${m}\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`,
        )
        .replace("</head>", () => `    <style>${style}</style>\n  </head>`)
        .replace("</body>", () => `    <script type="module">${script}</script>\n  </body>`);
      if (!page.includes("Content-Security-Policy"))
        throw new Error('inline-page: the page has no <meta charset="utf-8" /> to put the policy after');
      html.source = page;
      for (const f of [chunks[0], ...css]) delete bundle[f.fileName];
    },
  };
}

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  plugins: [inlinePage()],
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: false,
    sourcemap: false,
    // Everything goes inline: no asset files, no separate CSS, no split chunks.
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    cssCodeSplit: false,
    modulePreload: false,
    rolldownOptions: {
      input: fileURLToPath(new URL("./share.html", import.meta.url)),
      output: { codeSplitting: false },
    },
  },
});
