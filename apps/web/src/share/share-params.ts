/**
 * What a shared page's address asks for: `?hop=3` or `#hop=3` opens hop 3 (a blog links to one hop),
 * `?embed` (or `#embed`) hides the chrome for an `<iframe>`. The timeline's own `#/trace/…` route is
 * read by models/app-context.ts; this only translates the short forms.
 */
export interface ShareParams {
  hop: number | null;
  embed: boolean;
}

export function parseShareParams(search: string, hash: string): ShareParams {
  const q = new URLSearchParams(search);
  const h = new URLSearchParams(hash.startsWith("#") && !hash.startsWith("#/") ? hash.slice(1) : "");
  const raw = h.get("hop") ?? q.get("hop");
  const hop = raw !== null && /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : null;
  return { hop, embed: q.has("embed") || h.has("embed") };
}
