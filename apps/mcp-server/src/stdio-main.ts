/**
 * The notes server as a stdio program (`npm run -s hopscope -- notes-server --stdio`): what a host such as
 * Claude Desktop launches. Same environment as the HTTP server (NOTES_FILE, MCP_MAX_BODY_BYTES,
 * NOTES_MAX_BYTES); stdout carries only JSON-RPC, the one startup line goes to stderr.
 */
import { loadConfig } from "./config";
import { NotesStore } from "./notes-store";
import { serveStdio } from "./stdio-transport";

const config = loadConfig();
const store = new NotesStore({ path: config.notesFile, maxBytes: config.maxNotesBytes });
await store.ensureFile();
const log = (line: string) => process.stderr.write(`mcp-server: ${line}\n`);
log(`MCP over stdio (notes file ${config.notesFile})`);
await serveStdio({ store, maxBodyBytes: config.maxBodyBytes, input: process.stdin, output: process.stdout, log });
