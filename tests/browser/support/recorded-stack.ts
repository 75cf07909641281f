/**
 * The whole hopscope stack in-process for a browser test, the topology `npm start` runs: the browser
 * tests use the shared full-stack helper (tests/support/recorder-stack.ts), with a freshly built UI.
 */
import type { Lesson } from "@hopscope/shared/ollama/lessons";
import { startRecorderStack, type RecorderStack } from "../../support/recorder-stack";

export type RecordedStack = Pick<
  RecorderStack,
  "uiUrl" | "tracesDir" | "stopRecorder" | "startRecorder" | "close" | "tapUrls"
>;

export interface RecordedStackOptions {
  /** The built UI (see build-ui.ts). */
  webDist: string;
  /** Stand-in model pace in tokens per second (0 = instant). */
  simTokensPerSecond?: number;
  /** Let the host stream model responses (so chunks are recorded). */
  stream?: boolean;
  /** A workshop lesson for the stand-in model (the host forwards it on every model call). */
  lesson?: Lesson;
}

export function startRecordedStack(opts: RecordedStackOptions): Promise<RecordedStack> {
  return startRecorderStack(opts);
}
