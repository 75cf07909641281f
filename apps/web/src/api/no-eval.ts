/**
 * Imported first by the pages served under a strict Content-Security-Policy (the shared trace file, the
 * audience viewer): they allow no eval, so zod must not compile parsers with `new Function` (or even
 * probe for it: the browser reports the probe as a policy violation). First, so it runs before any
 * module parses anything at import time.
 */
import { z } from "zod";

z.config({ jitless: true });
