/**
 * From raw body bytes and headers to a classified JSON-RPC message, applying the 2026-07-28 checks
 * in the SDK's order (mcp-2026-07-28.md §2.10, §3.3): JSON-RPC shape, era classification, header/body
 * mismatch (-32020), unsupported version (-32022), missing standard headers (-32020), malformed
 * `_meta` (-32602, 400). Method lookup (404) is the dispatcher's.
 */
import { JsonLimitError, parseJson } from "@hopscope/shared/json/parse";
import {
  HEADER_METHOD,
  HEADER_NAME,
  HEADER_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MCP_NAME_SOURCE,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  MODERN_PROTOCOL_VERSIONS,
} from "@hopscope/shared/mcp/constants";
import { ErrorCode } from "@hopscope/shared/mcp/errors";
import { decodeHeaderValue } from "@hopscope/shared/mcp/headers";
import { type JsonRpcId, JsonRpcIdSchema, RequestMetaSchema } from "@hopscope/shared/mcp/schemas";
import { RpcError } from "./rpc-error";
import { issueField } from "@hopscope/shared/json/zod-error";

export type Era = "modern" | "legacy";

type HeaderGet = (name: string) => string | undefined;

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export interface ParsedMessage {
  /** null for a notification (or a request whose id could not be read). */
  id: JsonRpcId | null;
  method: string;
  params: Record<string, unknown>;
  isNotification: boolean;
}

/** Either the message, or the error to answer with and the id it should carry (null when unreadable). */
export type ParseOutcome = { ok: true; message: ParsedMessage } | { ok: false; id: JsonRpcId | null; error: RpcError };

/** Parse the body as one JSON-RPC request or notification (400 with -32700/-32600 otherwise). */
export function parseMessage(bytes: Uint8Array): ParseOutcome {
  const fail = (code: number, message: string, id: JsonRpcId | null = null): ParseOutcome => ({
    ok: false,
    id,
    error: new RpcError(400, code, message),
  });
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    // The fatal decoder's TypeError says nothing useful; the message below says what to fix.
    return fail(ErrorCode.ParseError, "Parse error: the request body is not valid UTF-8; send a UTF-8 JSON-RPC object");
  }
  let msg: unknown;
  try {
    msg = parseJson(text);
  } catch (err) {
    if (err instanceof JsonLimitError) return fail(ErrorCode.ParseError, `Parse error: ${err.message}`);
    return fail(ErrorCode.ParseError, `Parse error: the body is not valid JSON (${(err as Error).message})`);
  }
  if (Array.isArray(msg)) {
    return fail(
      ErrorCode.InvalidRequest,
      "Invalid Request: batch arrays are not supported; POST one JSON-RPC request per HTTP request",
    );
  }
  if (typeof msg !== "object" || msg === null)
    return fail(ErrorCode.InvalidRequest, "Invalid Request: the body must be a JSON-RPC object");
  const m = msg as Record<string, unknown>;
  const idCheck = JsonRpcIdSchema.safeParse(m.id);
  if ("id" in m && !idCheck.success)
    return fail(ErrorCode.InvalidRequest, 'Invalid Request: "id" must be a string or an integer');
  // From here on the error carries the request id, as conformance requires.
  const id = idCheck.success ? idCheck.data : null;
  if (m.jsonrpc !== "2.0") return fail(ErrorCode.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"', id);
  if (typeof m.method !== "string") {
    const why =
      "result" in m || "error" in m ? "clients must not POST JSON-RPC responses" : '"method" must be a string';
    return fail(ErrorCode.InvalidRequest, `Invalid Request: ${why}`, id);
  }
  if (m.params !== undefined && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))) {
    return fail(ErrorCode.InvalidRequest, 'Invalid Request: "params" must be an object', id);
  }
  const params = (m.params as Record<string, unknown> | undefined) ?? {};
  return { ok: true, message: { id, method: m.method, params, isNotification: !("id" in m) } };
}

/** Which era a message belongs to (§3.3): the body's envelope first, a modern version header second. */
export function classify(params: Record<string, unknown>, header: HeaderGet): Era {
  const meta = params._meta;
  if (typeof meta === "object" && meta !== null && (META_PROTOCOL_VERSION in meta || META_CLIENT_CAPABILITIES in meta))
    return "modern";
  const hv = header(HEADER_PROTOCOL_VERSION);
  return hv !== undefined && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(hv) ? "modern" : "legacy";
}

const mismatch = (msg: string) => new RpcError(400, ErrorCode.HeaderMismatch, `Header mismatch: ${msg}`);
const missing = (name: string, why: string) =>
  new RpcError(400, ErrorCode.HeaderMismatch, `Missing required header ${name}: ${why}`);

/**
 * The modern checks, in order. Throws the first failing one. Over stdio there are no headers, so only
 * the version and the `_meta` envelope are checked.
 */
export function checkModern(
  method: string,
  params: Record<string, unknown>,
  isNotification: boolean,
  header: HeaderGet,
  transport: "http" | "stdio" = "http",
): void {
  const meta = (typeof params._meta === "object" && params._meta !== null ? params._meta : {}) as Record<
    string,
    unknown
  >;
  const bodyVersion = meta[META_PROTOCOL_VERSION];
  const hVersion = header(HEADER_PROTOCOL_VERSION);
  const hMethod = header(HEADER_METHOD);

  if (hVersion !== undefined && typeof bodyVersion === "string" && hVersion !== bodyVersion) {
    throw mismatch(`MCP-Protocol-Version header value '${hVersion}' does not match body value '${bodyVersion}'`);
  }
  if (hMethod !== undefined && hMethod !== method) {
    throw mismatch(`Mcp-Method header value '${hMethod}' does not match body value '${method}'`);
  }

  const requested = typeof bodyVersion === "string" ? bodyVersion : hVersion;
  if (requested !== undefined && !(MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(requested)) {
    throw new RpcError(
      400,
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version '${requested}': this server supports ${MODERN_PROTOCOL_VERSIONS.join(", ")} per request, and ${LEGACY_PROTOCOL_VERSIONS.join(", ")} through initialize`,
      { supported: [...MODERN_PROTOCOL_VERSIONS], requested },
    );
  }

  if (!isNotification && transport === "http") checkRequestHeaders(method, params, header, requested);

  const envelope = RequestMetaSchema.safeParse(params._meta);
  if (!envelope.success) {
    const where = envelope.error.issues.map((i) => issueField(["_meta", ...i.path], "_meta")).join(", ");
    throw new RpcError(
      400,
      ErrorCode.InvalidParams,
      `Invalid params: missing or malformed ${where}; every 2026-07-28 request needs params._meta with "${META_PROTOCOL_VERSION}" (string) and "${META_CLIENT_CAPABILITIES}" (object, {} is fine)`,
    );
  }
}

/** A request over HTTP carries its version, method and (for named methods) name as headers too. */
function checkRequestHeaders(
  method: string,
  params: Record<string, unknown>,
  header: HeaderGet,
  requested: string | undefined,
): void {
  if (header(HEADER_PROTOCOL_VERSION) === undefined)
    throw missing(
      "MCP-Protocol-Version",
      `send 'MCP-Protocol-Version: ${String(requested)}' (the body's protocol version)`,
    );
  if (header(HEADER_METHOD) === undefined) throw missing("Mcp-Method", `send 'Mcp-Method: ${method}'`);
  const nameField = MCP_NAME_SOURCE[method];
  if (nameField === undefined) return;
  const hName = header(HEADER_NAME);
  const bodyName = params[nameField];
  if (hName === undefined) throw missing("Mcp-Name", `${method} needs 'Mcp-Name' mirroring params.${nameField}`);
  const decoded = decodeHeaderValue(hName);
  if (!decoded.ok) throw mismatch(`Mcp-Name ${decoded.error}`);
  if (typeof bodyName === "string" && decoded.value !== bodyName) {
    throw mismatch(`Mcp-Name header value '${decoded.value}' does not match body value '${bodyName}'`);
  }
}

/** Legacy traffic: a version header, when sent, must name a revision we serve (2025-11-25 transports.mdx). */
export function checkLegacy(method: string, header: HeaderGet): void {
  const hVersion = header(HEADER_PROTOCOL_VERSION);
  if (method === "initialize" || hVersion === undefined) return;
  if (!(LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(hVersion)) {
    const supported = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];
    throw new RpcError(
      400,
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version '${hVersion}': supported are ${supported.join(", ")}`,
      {
        supported,
        requested: hVersion,
      },
    );
  }
}
