/** Starts bench/upstream.ts as its own process (so its CPU is charged to no contender) and returns its port. */
import { spawn } from "node:child_process";

export interface UpstreamChild {
  port: number;
  stop(): void;
}

export async function startUpstream(): Promise<UpstreamChild> {
  const child = spawn(process.execPath, ["--import", "tsx", new URL("./upstream.ts", import.meta.url).pathname], {
    // stdin is a pipe only so the upstream notices when the bench goes away (it exits on end of input).
    stdio: ["pipe", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once("data", (d: Buffer) => resolve(JSON.parse(d.toString()).port));
    child.once("exit", (code) => reject(new Error(`the bench upstream exited with ${code} before listening`)));
  });
  return { port, stop: () => child.kill("SIGTERM") };
}
