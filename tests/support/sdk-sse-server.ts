/**
 * The official SDK 1.x Streamable HTTP server, as learners' servers are written: stateful (it mints an
 * `Mcp-Session-Id`) and answering POSTs with SSE streams. Its one tool, `slow_append`, sends a progress
 * notification on the request's stream before its result, so the answer is two events. On 127.0.0.1:0.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export async function startSdkSseServer(): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const newSession = async () => {
    const server = new McpServer({ name: "sdk-sse-notes", version: "1.0.0" });
    server.registerTool(
      "slow_append",
      { description: "Append a note, reporting progress", inputSchema: { content: z.string() } },
      async ({ content }, extra) => {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: extra._meta?.progressToken ?? "p", progress: 1, total: 2, message: "writing" },
        });
        return { content: [{ type: "text", text: `Appended: ${content}` }] };
      },
    );
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id: string): void => {
        transports.set(id, transport);
      },
    });
    await server.connect(transport);
    return transport;
  };
  const httpServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as unknown) : undefined;
      const id = req.headers["mcp-session-id"];
      const known = typeof id === "string" ? transports.get(id) : undefined;
      const handle = async () => (known ?? (await newSession())).handleRequest(req, res, body);
      handle().catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`,
    close: async () => {
      for (const t of transports.values()) await t.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
