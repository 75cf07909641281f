/**
 * Who wrote an exported file: the `generator` of hopscope trace files, the `creator` of HAR files and the
 * instrumentation scope of OTLP spans. The version is the proxy package's, so a file says which build made it.
 */
import pkg from "../../../package.json" with { type: "json" };

export const GENERATOR = { name: "hopscope", version: pkg.version } as const;
