/** A URL on 127.0.0.1 where nothing listens (a port that was just bound and released), for "server down" tests. */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  return `http://127.0.0.1:${port}`;
}
