/**
 * The rows of the tools table (hop 2): each tool a tools/list result declares, with its arguments (name,
 * JSON Schema type, required) and its description — what the host will pass to the model, word for word.
 */
import { jsonValues } from "./body";

export interface ToolArgument {
  name: string;
  type: string;
  required: boolean;
  description?: string;
}

export interface ToolRow {
  name: string;
  description: string;
  arguments: ToolArgument[];
  /** MCP annotations worth a word: read-only, destructive. */
  hints: string[];
}

function typeOf(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "any";
  const s = schema as { type?: unknown; enum?: unknown; items?: unknown };
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(s.type)) return s.type.join(" | ");
  if (s.type === "array") return `${typeOf(s.items)}[]`;
  return typeof s.type === "string" ? s.type : "any";
}

/** The tools of a tools/list response body (JSON, or SSE / NDJSON carrying one JSON-RPC message). */
export function toolRows(responseBody: string): ToolRow[] | null {
  for (const v of jsonValues(responseBody)) {
    const tools = (v as { result?: { tools?: unknown } } | null)?.result?.tools;
    if (!Array.isArray(tools)) continue;
    return tools.map((t: Record<string, unknown>) => {
      const schema = (t.inputSchema ?? {}) as { properties?: Record<string, unknown>; required?: unknown };
      const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
      const props = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
      const ann = (t.annotations ?? {}) as { readOnlyHint?: unknown; destructiveHint?: unknown };
      return {
        name: String(t.name ?? "?"),
        description: typeof t.description === "string" ? t.description : "",
        arguments: Object.entries(props).map(([name, p]) => {
          const d = (p as { description?: unknown } | null)?.description;
          return {
            name,
            type: typeOf(p),
            required: required.has(name),
            ...(typeof d === "string" ? { description: d } : {}),
          };
        }),
        hints: [ann.readOnlyHint === true ? "read-only" : "", ann.destructiveHint === true ? "destructive" : ""].filter(
          Boolean,
        ),
      };
    });
  }
  return null;
}
