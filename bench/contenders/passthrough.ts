/**
 * The baseline: a plain Node `node:http` pass-through written for the benchmark, with a keep-alive agent
 * and streaming pipes, recording nothing. Usage: passthrough.ts <listenPort> <upstreamPort>.
 */
import { Agent, createServer, request } from "node:http";

const [listenPort, upstreamPort] = process.argv.slice(2).map(Number);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((req, res) => {
  const upstream = request(
    { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on("error", (err) => {
    res.writeHead(502, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: err.message }));
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 60_000;
server.listen(listenPort, "127.0.0.1", () => process.stdout.write("ready\n"));
