/**
 * The least a recorder that keeps every byte can cost: the plain Node pass-through (passthrough.ts) that also
 * writes each exchange's request and answer bytes to SQLite, as they are, in one transaction every few
 * milliseconds, on the same thread, with the recorder's pragmas (WAL, synchronous=NORMAL). It parses,
 * classifies, groups and streams nothing. Usage: storing-passthrough.ts <listenPort> <upstreamPort> <dbFile>.
 */
import Database from "better-sqlite3";
import { Agent, createServer, request } from "node:http";

const [listenPort, upstreamPort] = process.argv.slice(2, 4).map(Number);
const db = new Database(process.argv[4] as string);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec(
  "CREATE TABLE IF NOT EXISTS exchanges (id INTEGER PRIMARY KEY, url TEXT, request_body BLOB, response_body BLOB)",
);
const insert = db.prepare("INSERT INTO exchanges (url, request_body, response_body) VALUES (?, ?, ?)");
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

type Row = [string, Buffer, Buffer];
let queue: Row[] = [];
let timer: NodeJS.Timeout | null = null;
const writeAll = db.transaction((rows: Row[]) => {
  for (const r of rows) insert.run(r);
});

function store(row: Row): void {
  queue.push(row);
  timer ??= setTimeout(() => {
    timer = null;
    const rows = queue;
    queue = [];
    writeAll(rows);
  }, 5);
}

const server = createServer((req, res) => {
  const sent: Buffer[] = [];
  const answer: Buffer[] = [];
  req.on("data", (c: Buffer) => sent.push(c));
  const upstream = request(
    { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.on("data", (c: Buffer) => answer.push(c));
      up.on("end", () => store([req.url ?? "", Buffer.concat(sent), Buffer.concat(answer)]));
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
process.on("SIGTERM", () => {
  if (queue.length > 0) writeAll(queue);
  db.close();
  process.exit(0);
});
