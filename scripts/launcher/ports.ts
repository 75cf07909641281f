/** Checks, before anything starts, that every port the launcher needs is free, naming the env var that moves it. */
import { createServer } from "node:net";
import { PORT_VARS, type LauncherConfig } from "./config";

function probe(port: number, host: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err));
    server.listen(port, host, () => server.close(() => resolve(null)));
  });
}

/** Returns one message per port that cannot be bound (empty when all are free). */
export async function busyPorts(config: LauncherConfig, needed: (keyof typeof PORT_VARS)[]): Promise<string[]> {
  const problems: string[] = [];
  for (const name of needed) {
    const port = config[name];
    const err = await probe(port, config.HOST);
    if (!err) continue;
    const why = err.code === "EADDRINUSE" ? "is already in use" : `cannot be bound (${err.code ?? err.message})`;
    problems.push(
      `port ${port} (${PORT_VARS[name]}) ${why}: stop what uses it, or move it with ${name}=<port> npm start`,
    );
  }
  return problems;
}
