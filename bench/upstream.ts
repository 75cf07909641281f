/**
 * The benchmark's upstream, run as its own process so its CPU is not charged to anyone else:
 *   POST /mcp           a ~400-byte JSON-RPC result, like an MCP tools/call answer
 *   POST /api/chat      a ~2 KB JSON body, like a non-streamed /api/chat answer
 *   POST /api/generate  NDJSON lines spaced in time, like a streamed model answer (?lines=20&interval=50)
 *   POST /agent         a short JSON reply, like the agent host's answer (for the timeline bench's mixed traces)
 *   POST /v1/messages, /v1/chat/completions, /v1/responses
 *                       a canned SSE answer of that dialect, as a model server streams it (bench/agent-answers.ts)
 *   GET  /health        200
 * Prints `{"port": N}` on stdout once listening.
 */
import { createServer } from "node:http";
import { cannedAnswers } from "./agent-answers";

const small = JSON.stringify({
  jsonrpc: "2.0",
  id: 2,
  result: {
    resultType: "complete",
    content: [{ type: "text", text: "Success" }],
    isError: false,
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "bench-upstream", version: "1.0.0" } },
    pad: "x".repeat(230),
  },
});
const chat = JSON.stringify({
  model: "qwen2.5:7b",
  created_at: new Date(0).toISOString(),
  message: { role: "assistant", content: 'I\'ve added "buy milk" to your notes. '.repeat(45) },
  done: true,
  done_reason: "stop",
  total_duration: 1,
  eval_count: 12,
});

const streamed = cannedAnswers();

const agentReply = JSON.stringify({ reply: 'I\'ve added "buy milk" to your notes.', conversationId: "bench" });

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  // Drain the request body before answering, as a real server would.
  req.resume();
  req.on("end", () => {
    if (url.pathname === "/health") {
      res.writeHead(200).end("ok");
      return;
    }
    if (url.pathname === "/mcp" || url.pathname === "/api/chat") {
      const body = url.pathname === "/mcp" ? small : chat;
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const answer = streamed.get(url.pathname);
    if (answer !== undefined) {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(answer);
      return;
    }
    if (url.pathname === "/agent") {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(agentReply) });
      res.end(agentReply);
      return;
    }
    if (url.pathname === "/api/generate") {
      const lines = Number(url.searchParams.get("lines") ?? 20);
      const interval = Number(url.searchParams.get("interval") ?? 50);
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      let i = 0;
      const tick = () => {
        const done = i === lines - 1;
        res.write(
          `${JSON.stringify({ i, sent: Date.now(), message: { role: "assistant", content: "tok " }, done })}\n`,
        );
        i++;
        if (done) res.end();
        else setTimeout(tick, interval);
      };
      tick();
      return;
    }
    res.writeHead(404).end();
  });
});
server.keepAliveTimeout = 60_000;
// The bench holds our stdin open; when it ends (the bench exited, even abruptly), so do we: no orphans.
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
});
