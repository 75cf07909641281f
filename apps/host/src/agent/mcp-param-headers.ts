/**
 * `x-mcp-header` (MCP 2026-07-28, SEP-2243): a tool may mark an argument so that clients mirror its value
 * in an `Mcp-Param-{Name}` header, letting gateways route without parsing the body. Clients MUST support
 * it, and MUST drop from `tools/list` a tool whose annotations are invalid. Values travel like
 * `Mcp-Name`: as is when safe ASCII, else the `=?base64?…?=` sentinel.
 */
import { encodeHeaderValue } from "@hopscope/shared/mcp/headers";
import type { Tool } from "@hopscope/shared/mcp/tools";

export interface ParamHeader {
  /** The argument (a top-level `inputSchema.properties` key). */
  property: string;
  /** The header is `Mcp-Param-${name}`. */
  name: string;
}

/** RFC 9110 `token`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const ALLOWED_TYPES = new Set(["string", "integer", "boolean"]);

/** The tool's mirrored arguments, or why its annotations are invalid (then the tool must be dropped). */
export function paramHeadersOf(tool: Tool): { headers: ParamHeader[] } | { invalid: string } {
  const headers: ParamHeader[] = [];
  const seen = new Set<string>();
  for (const [property, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
    const name = schema["x-mcp-header"];
    if (name === undefined) continue;
    if (typeof name !== "string" || !TOKEN.test(name)) {
      return { invalid: `x-mcp-header of "${property}" must be a header-name token, got ${JSON.stringify(name)}` };
    }
    if (seen.has(name.toLowerCase())) return { invalid: `x-mcp-header "${name}" is used twice` };
    if (typeof schema.type !== "string" || !ALLOWED_TYPES.has(schema.type)) {
      return {
        invalid: `x-mcp-header "${name}" is on "${property}" of type ${JSON.stringify(schema.type)}; only string, integer and boolean may be mirrored`,
      };
    }
    seen.add(name.toLowerCase());
    headers.push({ property, name });
  }
  return { headers };
}

/** The `Mcp-Param-*` headers for one call; absent and null arguments are left out, as the spec says. */
export function paramHeaderValues(params: ParamHeader[], args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { property, name } of params) {
    const value = args[property];
    if (value === undefined || value === null) continue;
    if (typeof value === "string") out[`mcp-param-${name.toLowerCase()}`] = encodeHeaderValue(value);
    else if (typeof value === "boolean" || (typeof value === "number" && Number.isSafeInteger(value))) {
      out[`mcp-param-${name.toLowerCase()}`] = String(value);
    }
    // Any other value does not match the declared type: the server rejects the call as a tool error,
    // which the model sees; a header could only disagree with the body.
  }
  return out;
}
