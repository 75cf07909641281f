/**
 * A small, hand-written MCP client speaking revision 2026-07-28 over HTTP (no SDK, as in the article):
 * every request is one POST carrying its protocol version, capabilities and identity in `params._meta`,
 * mirrored in the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers. The answer may be JSON or
 * an SSE stream; both are read. The server side is apps/mcp-server; the shapes are @hopscope/shared/mcp/*.
 */
import { parseJson } from "@hopscope/shared/json/parse";
import { z } from "zod";
import { buildModernRequest } from "@hopscope/shared/mcp/request";
import {
  JsonRpcErrorResponseSchema,
  resultResponseSchema,
  type JsonRpcErrorObject,
} from "@hopscope/shared/mcp/schemas";
import {
  CallToolResultSchema,
  ListToolsResultSchema,
  type CallToolResult,
  type Tool,
} from "@hopscope/shared/mcp/tools";
import { paramHeadersOf, paramHeaderValues, type ParamHeader } from "./mcp-param-headers";
import { sseJsonStream } from "@hopscope/shared/framing/sse";
import { mcpFailed, mcpUnreachable } from "./errors";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

const CLIENT_INFO = { name: "hopscope-host", version: "0.1.0" };

/** JSON-RPC ids increase per process, as in the article's trace (tools/list id 1, tools/call id 2, …). */
let nextId = 1;

/** A JSON-RPC error the MCP server answered (in-band or with a 4xx): a protocol error, for the developer. */
export class McpProtocolError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(
    readonly error: JsonRpcErrorObject,
    readonly httpStatus: number,
  ) {
    super(`${error.message} (${error.code})`);
    this.name = "McpProtocolError";
    this.code = error.code;
    this.data = error.data;
  }
}

export interface McpClientOptions {
  url: string;
  fetch?: typeof fetch;
  /** Told about each tool dropped from tools/list because its `x-mcp-header` annotations are invalid. */
  onDroppedTool?: (name: string, reason: string) => void;
}

export class McpClient {
  readonly url: string;
  private readonly fetchFn: typeof fetch;
  private readonly onDroppedTool: (name: string, reason: string) => void;
  /** `x-mcp-header` arguments per tool, from the latest tools/list. */
  private readonly paramHeaders = new Map<string, ParamHeader[]>();

  constructor(opts: McpClientOptions) {
    this.url = opts.url;
    this.fetchFn = opts.fetch ?? fetch;
    this.onDroppedTool = opts.onDroppedTool ?? (() => {});
  }

  /** Every tool, following `nextCursor` pages. Fetched per question (not cached) so each trace shows the hop. */
  async listTools(traceparent: string): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; ; page++) {
      if (page === 100) throw mcpFailed(this.url, "tools/list returned more than 100 pages; is nextCursor stuck?");
      const result = await this.request(
        "tools/list",
        cursor === undefined ? {} : { cursor },
        traceparent,
        ListToolsResultSchema,
      );
      for (const tool of result.tools) {
        const params = paramHeadersOf(tool);
        if ("invalid" in params) {
          this.onDroppedTool(tool.name, params.invalid);
          continue;
        }
        this.paramHeaders.set(tool.name, params.headers);
        tools.push(tool);
      }
      if (result.nextCursor === undefined) return tools;
      cursor = result.nextCursor;
    }
  }

  /** Run one tool. A tool error is a normal result with `isError`; a protocol error throws McpProtocolError. */
  async callTool(name: string, args: Record<string, unknown>, traceparent: string): Promise<CallToolResult> {
    const extra = paramHeaderValues(this.paramHeaders.get(name) ?? [], args);
    return this.request("tools/call", { name, arguments: args }, traceparent, CallToolResultSchema, extra);
  }

  private async request<T extends z.ZodType>(
    method: string,
    params: Record<string, unknown>,
    traceparent: string,
    resultSchema: T,
    extraHeaders: Record<string, string> = {},
  ): Promise<z.infer<T>> {
    // `_meta` carries protocol version, capabilities, identity and the traceparent (the 2026-07-28 spec
    // reserves it there, so the trace survives hops that are not HTTP); the headers mirror them.
    const id = nextId++;
    const request = buildModernRequest({ id, method, params, clientInfo: CLIENT_INFO, traceparent });
    const { body } = request;
    const headers = { ...request.headers, ...extraHeaders };
    let res: Response;
    try {
      res = await this.fetchFn(this.url, { method: "POST", headers, body: JSON.stringify(body) });
    } catch (err) {
      throw mcpUnreachable(this.url, err);
    }
    const message = await this.readResponse(res, id, method);
    const asError = JsonRpcErrorResponseSchema.safeParse(message);
    if (asError.success) throw new McpProtocolError(asError.data.error, res.status);
    if (!res.ok)
      throw mcpFailed(this.url, `${method} answered HTTP ${res.status}: ${JSON.stringify(message).slice(0, 300)}`);
    // Servers of earlier revisions omit resultType; the spec says clients MUST read that as "complete".
    const raw = message as { result?: unknown };
    if (typeof raw.result === "object" && raw.result !== null && !("resultType" in raw.result)) {
      raw.result = { ...raw.result, resultType: "complete" };
    }
    const parsed = resultResponseSchema(resultSchema).safeParse(message);
    if (!parsed.success) {
      const issues = formatZodIssues(parsed.error, { whole: "the message" });
      throw mcpFailed(this.url, `${method} returned a result this client cannot read (${issues})`);
    }
    const result = parsed.data.result as z.infer<T> & { resultType: string };
    // We declare no capabilities, so a server must not ask us for input (input_required); any other
    // value is one this client does not know, which the spec says to treat as invalid.
    const resultType = result.resultType;
    if (resultType !== "complete") {
      throw mcpFailed(this.url, `${method} returned resultType "${resultType}", which this client does not support`);
    }
    return result;
  }

  /** The JSON-RPC response for `id`, from a JSON body or an SSE stream (notifications before it skipped). */
  private async readResponse(res: Response, id: number, method: string): Promise<unknown> {
    const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "text/event-stream" && res.body) {
      try {
        for await (const message of sseJsonStream(res.body)) {
          if (isResponseTo(message, id)) return message;
        }
      } catch (err) {
        throw mcpFailed(this.url, `${method}: the event stream broke: ${(err as Error).message}`, err);
      }
      throw mcpFailed(this.url, `${method}: the event stream ended without a response to request ${id}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw mcpFailed(this.url, `${method}: the answer broke off while it was being read`, err);
    }
    if (type !== "application/json") {
      throw mcpFailed(
        this.url,
        `${method} answered HTTP ${res.status} with ${type || "no content type"}, not JSON-RPC: ${text.slice(0, 200)}` +
          (res.status === 404 ? " (is MCP_URL the server's /mcp endpoint?)" : ""),
      );
    }
    try {
      return parseJson(text) as unknown;
    } catch (err) {
      throw mcpFailed(this.url, `${method} answered invalid JSON: ${text.slice(0, 200)}`, err);
    }
  }
}

function isResponseTo(message: unknown, id: number): boolean {
  if (typeof message !== "object" || message === null) return false;
  const m = message as Record<string, unknown>;
  // An error for a request whose id the server could not read comes back with id null.
  return ("result" in m || "error" in m) && (m.id === id || m.id === null);
}
