/**
 * Runs each app as its own process (as in the article: separate processes talking HTTP), waits until it
 * answers, and stops them all on Ctrl-C. An app runs as built (`node apps/<app>/dist/main.js`, see
 * scripts/build/programs.ts), or from its sources through tsx, reloading on change, with `--dev`. A child's output is kept in a short buffer and shown only when it
 * fails, so the terminal stays readable; its warnings and errors are shown as they happen (problem-line.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { problemLine } from "./problem-line";

export interface ServiceSpec {
  name: string;
  /** Workspace folder under apps/. */
  app: string;
  env: Record<string, string>;
  /** URL that answers (any HTTP status in `okStatuses`) once the service is ready. */
  readyUrl: string;
  okStatuses?: number[];
  /** What to print once ready. */
  shows: string;
}

export interface RunningService {
  spec: ServiceSpec;
  child: ChildProcess;
  output: string[];
}

const OUTPUT_LINES = 40;

export function startService(
  root: string,
  spec: ServiceSpec,
  watch: boolean,
  onProblem: (line: string) => void = () => {},
): RunningService {
  const [program, args] = watch
    ? [
        join(root, "node_modules", ".bin", "tsx"),
        ["watch", "--clear-screen=false", join(root, "apps", spec.app, "src", "main.ts")],
      ]
    : [process.execPath, [join(root, "apps", spec.app, "dist", "main.js")]];
  const child = spawn(program, args, {
    cwd: root,
    env: { ...process.env, ...spec.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const running: RunningService = { spec, child, output: [] };
  // Per stream, a line cut between two reads is joined before it is judged (a JSON log line read in halves
  // would be no warning at all).
  const keep = () => {
    let rest = "";
    return (data: Buffer) => {
      const lines = (rest + data.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (!line) continue;
        running.output.push(line);
        const problem = problemLine(spec.name, line);
        if (problem) onProblem(problem);
        if (running.output.length > OUTPUT_LINES) running.output.shift();
      }
    };
  };
  child.stdout?.on("data", keep());
  child.stderr?.on("data", keep());
  return running;
}

/** Polls the service until it answers, or fails with its last output when it exits or takes too long. */
export async function waitReady(service: RunningService, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const ok = service.spec.okStatuses ?? [200];
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      throw new Error(
        `${service.spec.name} exited (${service.child.exitCode ?? service.child.signalCode}):\n${service.output.join("\n")}`,
      );
    }
    try {
      const res = await fetch(service.spec.readyUrl, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (ok.includes(res.status)) return;
    } catch {
      // Not listening yet: expected while it starts; the loop's deadline bounds the wait.
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(
    `${service.spec.name} did not answer at ${service.spec.readyUrl} within ${timeoutMs / 1000}s:\n${service.output.join("\n")}`,
  );
}

/** SIGTERM every child, then SIGKILL whatever is left after a grace period. */
export async function stopAll(services: RunningService[], graceMs = 3000): Promise<void> {
  const alive = services.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
  await Promise.all(
    alive.map(
      (s) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            s.child.kill("SIGKILL");
          }, graceMs);
          s.child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          s.child.kill("SIGTERM");
        }),
    ),
  );
}
