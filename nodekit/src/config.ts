/**
 * The one configuration reader of every app: a zod object over the environment, one error format.
 *
 * The rule for empty values: a variable set to the empty string counts as unset, so its default applies
 * (`UI_PORT= npm start` is the default port, never port 0; ask for a free port with `UI_PORT=0`). Shells
 * and compose files produce empty values from unset `${VAR}` substitutions; treating them as "use the
 * default" is what a learner expects.
 */
import { z } from "zod";
import { formatZodIssues } from "@hopscope/shared/json/zod-error";

type EnvObject = z.ZodObject;

/**
 * Reads `env` through `schema` (an object of variables, or one piped into a renaming transform): only
 * the object's own keys are read. Throws one message with a line per bad variable.
 */
export function readConfig<S extends EnvObject | z.ZodPipe<EnvObject, z.ZodType>>(
  app: string,
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const object: EnvObject = schema instanceof z.ZodPipe ? schema.in : (schema as EnvObject);
  const picked = Object.fromEntries(Object.keys(object.shape).map((k) => [k, env[k] === "" ? undefined : env[k]]));
  const parsed = schema.safeParse(picked);
  if (!parsed.success) throw new Error(formatConfigError(app, parsed.error, env));
  return parsed.data as z.output<S>;
}

/** `invalid <app> configuration:` then `  NAME="value": what is wrong` per issue. */
export function formatConfigError(app: string, error: z.ZodError, env: Record<string, string | undefined>): string {
  const lines = formatZodIssues(error, {
    whole: "environment",
    separator: "\n",
    indent: "  ",
    field: (path) => {
      const name = String(path[0] ?? "environment");
      return `${name}=${JSON.stringify(env[name] ?? "")}`;
    },
  });
  return `invalid ${app} configuration (see the Configuration table in README.md):\n${lines}`;
}

export const port = (name: string, fallback: number, min = 0) =>
  z.coerce
    .number({ error: `${name} must be a port number (${min}-65535)` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be between ${min} and 65535`)
    .max(65535, `${name} must be between ${min} and 65535`)
    .default(fallback);

export const httpUrl = (name: string, fallback: string) =>
  z
    .url({ protocol: /^https?$/, error: `${name} must be an http:// or https:// URL such as ${fallback}` })
    .default(fallback)
    // A trailing slash would turn `${URL}/api/chat` into `//api/chat`.
    .transform((u) => u.replace(/\/+$/, ""));

export const bool = (name: string, fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0"], { error: `${name} must be true or false` })
    .default(fallback ? "true" : "false")
    .transform((v) => v === "true" || v === "1");

export const positiveInt = (name: string, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .positive(`${name} must be a positive integer`)
    .default(fallback);

export const nonNegative = (name: string, fallback: number, unit: string) =>
  z.coerce
    .number({ error: `${name} must be a number of ${unit}` })
    .min(0, `${name} must be 0 or more ${unit}`)
    .default(fallback);

export const bindHost = () => z.string().min(1).default("127.0.0.1");

const HOST_ENTRY = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:\d{1,5})?$/i;

/**
 * `ALLOWED_HOSTS`: the comma-separated host names (besides loopback ones) a request's `Host` may name,
 * each `name` (any port) or `name:port`, e.g. `mcp-server:8080,proxy:7071`.
 */
export const allowedHosts = (name = "ALLOWED_HOSTS") =>
  z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter((h) => h !== ""),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            HOST_ENTRY,
            `${name} must list host names such as mcp-server:8080,proxy:7071 (comma-separated, no scheme or path)`,
          ),
      ),
    );
