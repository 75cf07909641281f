/**
 * `npm start` as the launcher tests run it: in its own process group, on free ports given through the
 * launcher's env vars, with the notes file and the database in a temp dir, the stand-in model, and
 * OLLAMA_URL pointing at a closed port so no real Ollama is picked.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { PORT_VARS } from "../../scripts/launcher/config";
import { closedPortUrl } from "./closed-port";
import { reservePort } from "./recorder-stack";

const root = join(import.meta.dirname, "..", "..");
export type PortVar = keyof typeof PORT_VARS;
export const PORT_NAMES = Object.keys(PORT_VARS) as PortVar[];

export interface Launched {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves with the first stdout line matching `re` (lines already printed count). */
  waitForLine(re: RegExp, timeoutMs: number): Promise<string>;
}

/** `npm start` in its own process group (as a shell's foreground job), output kept line by line. */
export function launch(env: Record<string, string>, cwd = root): Launched {
  const child = spawn("npm", ["start"], {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  const lines = (into: string[], check: boolean) => {
    let rest = "";
    return (data: Buffer) => {
      const parts = (rest + data.toString("utf8")).split("\n");
      rest = parts.pop() ?? "";
      for (const line of parts) {
        into.push(line);
        if (!check) continue;
        for (const w of [...waiters]) {
          if (w.re.test(line)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(line);
          }
        }
      }
    };
  };
  child.stdout!.on("data", lines(stdout, true));
  child.stderr!.on("data", lines(stderr, false));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    stdout,
    stderr,
    exited,
    waitForLine: (re, timeoutMs) => {
      const seen = stdout.find((l) => re.test(l));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(
            new Error(
              `no line matching ${re} within ${timeoutMs} ms\nstdout:\n${stdout.join("\n")}\nstderr:\n${stderr.join("\n")}`,
            ),
          );
        }, timeoutMs);
        const waiter = { re, resolve: (l: string) => (clearTimeout(timer), resolve(l)) };
        waiters.push(waiter);
        void exited.then(() => {
          clearTimeout(timer);
          reject(
            new Error(
              `npm start exited before printing a line matching ${re}\nstdout:\n${stdout.join("\n")}\nstderr:\n${stderr.join("\n")}`,
            ),
          );
        });
      });
    },
  };
}

/** True when nothing is left in the process group (ESRCH), false while any member lives. */
export function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return true;
    throw err;
  }
}

export async function launcherEnv(
  dir: string,
): Promise<{ env: Record<string, string>; ports: Record<PortVar, number> }> {
  const ports = {} as Record<PortVar, number>;
  for (const name of PORT_NAMES) ports[name] = await reservePort();
  const env: Record<string, string> = {
    HOPSCOPE_MODEL: "sim",
    HOST: "127.0.0.1",
    // Nothing listens there: even with HOPSCOPE_MODEL=sim, no real Ollama on this machine can be picked.
    OLLAMA_URL: await closedPortUrl(),
    NOTES_FILE: join(dir, "db"),
    DB_FILE: join(dir, "hopscope.sqlite"),
    TRACES_DIR: join(dir, "traces"),
    // The stand-in without its pauses (read by apps/model-sim from the environment it inherits).
    SIM_TOKENS_PER_SECOND: "0",
    SIM_LOAD_MS: "0",
    ...Object.fromEntries(PORT_NAMES.map((n) => [n, String(ports[n])])),
  };
  return { env, ports };
}

/**
 * `npm start` on reserved ports, until it prints "Open http://…". A reserved port is released before the apps
 * bind it, and under a full parallel run another test file's server can take it meanwhile (seen in CI as
 * EADDRINUSE): then npm start stops, and this starts it again on new ports, as startRecorderStack does.
 */
export async function launchUntilOpen(
  dir: string,
  cwd = root,
  timeoutMs = 180_000,
): Promise<{ launched: Launched; env: Record<string, string>; ports: Record<PortVar, number>; open: string }> {
  for (let attempt = 1; ; attempt++) {
    const { env, ports } = await launcherEnv(dir);
    const launched = launch(env, cwd);
    try {
      return { launched, env, ports, open: await launched.waitForLine(/Open http:\/\//, timeoutMs) };
    } catch (err) {
      const pid = launched.child.pid;
      if (pid && !groupGone(pid)) process.kill(-pid, "SIGKILL");
      await launched.exited;
      const portTaken = /EADDRINUSE|already in use/.test(launched.stderr.join("\n"));
      if (attempt >= 3 || !portTaken) throw err;
    }
  }
}
