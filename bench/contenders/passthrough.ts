/**
 * The baselines: a plain Node `node:http` pass-through written for the benchmark, with a keep-alive agent and
 * streaming pipes, recording nothing; and, given a database file, the floor: the same pass-through that also
 * writes each exchange's request and answer bytes to SQLite, as they are, in one transaction every few
 * milliseconds, on the same thread, with the recorder's pragmas (WAL, synchronous=NORMAL). The floor parses,
 * classifies, groups and streams nothing: it is the least a recorder that keeps every byte can cost.
 * Usage: passthrough.ts <listenPort> <upstreamPort> [dbFile].
 */
import { Agent, createServer, request } from "node:http";

const [listenPort, upstreamPort] = process.argv.slice(2, 4).map(Number);
const dbFile = process.argv[4];
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

type Row = [string, Buffer, Buffer];

/** The floor's store: rows queued, written together every 5 ms; null for the plain pass-through. */
async function openStore(file: string | undefined): Promise<((row: Row) => void) | null> {
  if (!file) return null;
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE exchanges (id INTEGER PRIMARY KEY, url TEXT, request_body BLOB, response_body BLOB)");
  const insert = db.prepare("INSERT INTO exchanges (url, request_body, response_body) VALUES (?, ?, ?)");
  const writeAll = db.transaction((rows: Row[]) => {
    for (const r of rows) insert.run(r);
  });
  let queue: Row[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    writeAll(queue);
    queue = [];
  };
  process.on("SIGTERM", () => {
    flush();
    db.close();
    process.exit(0);
  });
  return (row) => {
    queue.push(row);
    timer ??= setTimeout(flush, 5);
  };
}

const store = await openStore(dbFile);

const server = createServer((req, res) => {
  const sent: Buffer[] = [];
  if (store) req.on("data", (c: Buffer) => sent.push(c));
  const upstream = request(
    { host: "127.0.0.1", port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      if (store) {
        const answer: Buffer[] = [];
        up.on("data", (c: Buffer) => answer.push(c));
        up.on("end", () => store([req.url ?? "", Buffer.concat(sent), Buffer.concat(answer)]));
      }
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
