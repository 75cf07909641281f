/**
 * Ollama versions and the rendering details that changed between them (reference: ollama-qwen25.md §2, §10).
 * Versions compare as semver; a pre-release sorts before its release, so "0.14.0-rc0" counts as 0.14.
 */

export const DEFAULT_OLLAMA_VERSION = "0.13.5";

interface Parsed {
  nums: [number, number, number];
  pre: string[];
}

function parse(v: string): Parsed {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(v.trim());
  if (!m) {
    throw new Error(`"${v}" is not an Ollama version: expected something like "0.13.5" or "0.14.0-rc0" (GET /api/version)`);
  }
  return { nums: [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)], pre: m[4] ? m[4].split(".") : [] };
}

/** Semver ordering: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return x.nums[i]! - y.nums[i]!;
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn && Number(p) !== Number(q)) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    // Ollama tags rc0 … rc11: compare the number after a shared prefix numerically, so rc10 follows rc9.
    const pm = /^([A-Za-z-]*)(\d+)$/.exec(p);
    const qm = /^([A-Za-z-]*)(\d+)$/.exec(q);
    if (pm && qm && pm[1] === qm[1] && Number(pm[2]) !== Number(qm[2])) return Number(pm[2]) - Number(qm[2]);
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}

export const atLeast = (v: string, min: string): boolean => compareVersions(v, min) >= 0;

/** What a given Ollama version does differently when it renders a chat. */
export interface OllamaFeatures {
  version: string;
  /** ≥ 0.14.0-rc0: `{{ .Function }}` prints a Go struct dump (ollama/ollama#14601). */
  structDump: boolean;
  /** < 0.7: tool properties were {type string, description, enum []string}; no $defs/items. */
  legacyToolStruct: boolean;
  /** ≥ 0.11.3: `anyOf` on properties. */
  anyOf: boolean;
  /** ≥ 0.12.6: function description and property type/description are omitempty. */
  omitEmptyDescription: boolean;
  /** ≥ 0.12.11: `required` is omitempty (before: `"required":null`). */
  omitEmptyRequired: boolean;
  /** Nested `properties` inside a property: absent before 0.13.5, a sorted map in 0.13.5, ordered from 0.14. */
  nestedProperties: "dropped" | "sorted" | "ordered";
  /** ≥ 0.20: a property's own `required` is kept. */
  propertyRequired: boolean;
  /** < 0.9.6: consecutive tool messages were merged like other roles. */
  mergeToolMessages: boolean;
  /** ≥ 0.13.0: tool calls carry an `ID` field. */
  toolCallId: boolean;
  /** Default context length used when the request sets no num_ctx (for the truncation hint only). */
  defaultNumCtx: number;
}

export function featuresFor(version: string): OllamaFeatures {
  const v = version;
  return {
    version: v,
    structDump: atLeast(v, "0.14.0-rc0"),
    legacyToolStruct: !atLeast(v, "0.7.0"),
    anyOf: atLeast(v, "0.11.3"),
    omitEmptyDescription: atLeast(v, "0.12.6"),
    omitEmptyRequired: atLeast(v, "0.12.11"),
    nestedProperties: atLeast(v, "0.14.0-rc0") ? "ordered" : atLeast(v, "0.13.5") ? "sorted" : "dropped",
    propertyRequired: atLeast(v, "0.20.0"),
    mergeToolMessages: !atLeast(v, "0.9.6"),
    toolCallId: atLeast(v, "0.13.0"),
    defaultNumCtx: atLeast(v, "0.9.0") ? 4096 : 2048,
  };
}
