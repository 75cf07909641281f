/**
 * Ollama versions and the rendering details that changed between them (reference: ollama-qwen25.md §2, §10).
 * Versions compare as semver; a pre-release sorts before its release, so "0.14.0-rc0" counts as 0.14.
 */

/**
 * The newest stable Ollama release we read the code of (tag v0.32.15; v0.33.0 is at rc2): what a learner who
 * installs Ollama now runs, so what the stand-in imitates and renders by default.
 */
export const DEFAULT_OLLAMA_VERSION = "0.32.15";

interface Parsed {
  nums: [number, number, number];
  pre: string[];
}

function parse(v: string): Parsed {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(v.trim());
  if (!m) {
    throw new Error(
      `"${v}" is not an Ollama version: expected something like "0.13.5" or "0.14.0-rc0" (GET /api/version)`,
    );
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
  /** ≥ 0.20.0-rc0: a property's own `required` is kept (api.ToolProperty.Required). */
  propertyRequired: boolean;
  /** < 0.9.6: consecutive tool messages were merged like other roles. */
  mergeToolMessages: boolean;
  /** ≥ 0.13.0: tool calls carry an `ID` field. */
  toolCallId: boolean;
  /** Default context length used when the request sets no num_ctx (for the truncation hint only). */
  defaultNumCtx: number;
  /**
   * ≥ 0.30.0-rc0: the runner is llama-server at llama.cpp b9048 or later, which makes `</s>` (id 128247) a
   * control token matched in the prompt text; 0.13.5 – 0.25 bundle llama.cpp ec98e2002, which does not.
   */
  endOfSentenceControl: boolean;
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
    propertyRequired: atLeast(v, "0.20.0-rc0"),
    mergeToolMessages: !atLeast(v, "0.9.6"),
    toolCallId: atLeast(v, "0.13.0"),
    // envconfig/config.go: OLLAMA_CONTEXT_LENGTH defaults to 4096 from 0.7.0 (2048 before); from 0.15.5 the
    // default is chosen by VRAM in server/routes.go Serve, and is 4096 on a machine without a large GPU.
    defaultNumCtx: atLeast(v, "0.7.0-rc0") ? 4096 : 2048,
    endOfSentenceControl: atLeast(v, "0.30.0-rc0"),
  };
}

/**
 * The release families whose qwen2.5 prompts differ, newest first. Every version string belongs to one: what
 * the render CLI, the prompt view and the stand-in show for a version is its family's render.
 */
export const OLLAMA_FAMILIES = [
  {
    id: "0.20+",
    since: "0.20.0-rc0",
    releases: "0.20 – 0.33",
    label: "Ollama 0.20+ (today's)",
    /** The release the goldens of this family are derived for. */
    representative: "0.32.15",
    toolFormat: "struct-dump",
    what: "each tool is a Go struct dump; a nested property keeps its own `required`",
  },
  {
    id: "0.14",
    since: "0.14.0-rc0",
    releases: "0.14.0 – 0.14.3",
    label: "Ollama 0.14",
    representative: "0.14.0",
    toolFormat: "struct-dump",
    what: "each tool is a Go struct dump (ollama/ollama#14601); a nested property's `required` is dropped",
  },
  {
    id: "0.13",
    since: "0.0.0",
    releases: "up to 0.13.5",
    label: "Ollama 0.13.5 and earlier",
    representative: "0.13.5",
    toolFormat: "json",
    what: "each tool is compact Go JSON, as the model was trained to read",
  },
] as const;

export type OllamaFamily = (typeof OLLAMA_FAMILIES)[number];
export type OllamaFamilyId = OllamaFamily["id"];

/** The family a version belongs to; throws (naming the expected form) on a string that is not a version. */
export function familyOf(version: string): OllamaFamily {
  const family = OLLAMA_FAMILIES.find((f) => atLeast(version, f.since));
  if (!family) throw new Error(`no Ollama family for "${version}"`);
  return family;
}

/**
 * Why a struct-dump family's prompt differs from the JSON family's: the regression as Ollama's tracker names it.
 * Shown next to the one-click comparison of "what the model saw".
 */
export const STRUCT_DUMP_REASON = {
  issue: "ollama/ollama#14601",
  url: "https://github.com/ollama/ollama/issues/14601",
  text:
    "From 0.14.0 Ollama hands the template its own templateToolFunction type, which has no String() method, " +
    "so {{ .Function }} prints a Go struct dump instead of the JSON schema qwen2.5 was trained on " +
    "(commit e51dead6, #13525; fix PRs #18391 and #18318 are open).",
} as const;

/**
 * Why a nested property's `required` list appears from 0.20: api.ToolProperty gained a Required field of its own
 * with the Gemma 4 work (ollama/ollama#15214, commit 96b202d3, first in v0.20.0). Before, it was an unknown key and
 * dropped, in the JSON family and in 0.14's struct dump alike.
 */
export const NESTED_REQUIRED_REASON = {
  issue: "ollama/ollama#15214",
  url: "https://github.com/ollama/ollama/pull/15214",
  text:
    "From 0.20.0 Ollama's api.ToolProperty has a Required field of its own (added with Gemma 4 support, #15214, " +
    'commit 96b202d3), so a nested object property keeps its "required" list in the prompt; 0.14 and earlier ' +
    "dropped it as a key they did not know.",
} as const;

export interface FamilyChange {
  /** "struct-dump": how each tool is printed (0.14); "nested-required": a nested property's own `required` (0.20). */
  kind: "struct-dump" | "nested-required";
  /** The family that brought the change. */
  since: OllamaFamilyId;
  reason: { issue: string; url: string; text: string };
}

/** The changes between the families, oldest first. */
const FAMILY_CHANGES: readonly FamilyChange[] = [
  { kind: "struct-dump", since: "0.14", reason: STRUCT_DUMP_REASON },
  { kind: "nested-required", since: "0.20+", reason: NESTED_REQUIRED_REASON },
];

/** Oldest first: the position of each family in release order. */
const FAMILY_ORDER: readonly OllamaFamilyId[] = ["0.13", "0.14", "0.20+"];

/** The changes that lie between two families (either order): what can make their prompts differ. */
export function changesBetween(a: OllamaFamilyId, b: OllamaFamilyId): FamilyChange[] {
  const [lo, hi] = [FAMILY_ORDER.indexOf(a), FAMILY_ORDER.indexOf(b)].sort((x, y) => x - y) as [number, number];
  return FAMILY_CHANGES.filter((c) => {
    const at = FAMILY_ORDER.indexOf(c.since);
    return lo < at && at <= hi;
  });
}
