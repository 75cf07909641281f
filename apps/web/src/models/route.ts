/**
 * The URL keeps the view: `#/trace/<id>/hop/<n>` (plus `/present` in presenter mode), so a link
 * opens the same trace, hop and mode.
 */
export interface Route {
  traceId: string | null;
  hop: number | null;
  present: boolean;
}

export function parseRoute(hash: string): Route {
  const m = /^#\/trace\/([^/]+)(?:\/hop\/(\d+))?(\/present)?\/?$/.exec(hash);
  if (!m) return { traceId: null, hop: null, present: /^#\/present\/?$/.test(hash) };
  return { traceId: decodeURIComponent(m[1] as string), hop: m[2] ? Number(m[2]) : null, present: Boolean(m[3]) };
}

export function formatRoute(r: Route): string {
  if (!r.traceId) return r.present ? "#/present" : "#/";
  return `#/trace/${encodeURIComponent(r.traceId)}${r.hop !== null ? `/hop/${r.hop}` : ""}${r.present ? "/present" : ""}`;
}
