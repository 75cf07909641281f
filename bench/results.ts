/** The shapes of the benchmark's results (bench/results.json), section by section. */
import type { BigPromptBench } from "./big-prompt";
import type { ReadersBench } from "./readers";
import type { StartBench } from "./start";

export interface ContenderSummary {
  name: string;
  rounds: number;
  mcpRps: number;
  chatRps: number;
  mcpCpuMicros: number;
  chatCpuMicros: number;
  singleLatencyMs: number;
  singleMeanLatencyMs: number;
  p99Ms: number;
  errors: number;
  streamFirstLineIdleMs: number;
  streamMaxGapIdleMs: number;
  streamFirstLineLoadedMs: number;
  streamMaxGapLoadedMs: number;
  peakRssMiB: number;
  /** Over all rounds: responses the load generator completed, and exchanges the proxy stored (recording proxies). */
  answered: number;
  recorded: number | null;
}

export interface PromptCase {
  name: string;
  messages: number;
  /** Render + tokenise, µs per call (median batch). */
  hopscopeMicros: number;
  baselineMicros: number;
  baselineName: string;
  /** Baseline time ÷ hopscope time: above 1 means hopscope is faster. */
  ratio: number;
  hopscopeRenderMicros: number;
  baselineRenderMicros: number;
  renderRatio: number;
  /** Tokens of hopscope's prompt (what Ollama counts) and of the HF template's. */
  tokens: number;
  baselineTokens: number;
  promptChars: number;
}
export interface PromptBench {
  tokenizerLoadMs: number;
  batches: number;
  cases: PromptCase[];
}
export interface UiOpen {
  exchanges: number;
  /** What "interactive" means, measured from navigation start. */
  definition: string;
  /** Median over `runs` page loads, alternating with the baseline. */
  interactiveMs: number;
  baselineMs: number;
  baselineName: string;
  /** The same measurement on a 1-exchange trace: what the app costs before the trace's size matters. */
  smallTraceMs: number;
  /** GET /api/traces/:id of the big trace, fetched and parsed by Node (no browser): the recorder's share. */
  apiMs: number;
  /** The same trace as one HTML file (export format=html) opened from file://, same definition; null when it could not run. */
  htmlFile: { ms: number; bytes: number; exportMs: number } | null;
  runs: number;
}
export interface AudienceRun {
  viewers: number;
  /** The recorder's CPU while the viewers joined, read the trace and followed the replay. */
  cpuSeconds: number;
  /** The part of it after every viewer had joined and read: following the positions alone. */
  followCpuSeconds: number;
  peakRssMiB: number;
  positions: number;
  sawLastHop: number;
}
export interface AudienceBench {
  none: AudienceRun;
  room: AudienceRun;
  replaySeconds: number;
  putIntervalMs: number;
}
export interface UiLive {
  ratePerSecond: number;
  seconds: number;
  sent: number;
  /** Exchanges the recorder stored (from its API). */
  recorded: number;
  /** Distinct exchanges the open page showed. */
  shown: number;
  /** From the last answer until the page showed the last hop (or gave up after 20 s). */
  catchUpMs: number;
}
/** One prompt of the "what the model saw" part (bench/views.ts). */
export interface ViewsCase {
  name: string;
  tokens: number;
  viewsBytes: number;
  viewsMs: number;
  budgetMs: number;
  promptOnScreenMs: number;
  budgetOnScreenMs: number;
  longestTaskMs: number;
}
export interface ViewsBench {
  runs: number;
  /** The article's prompt first: the others are compared with it. */
  cases: ViewsCase[];
}

export interface UiBench {
  open: UiOpen | null;
  live: UiLive | null;
  /** "What the model saw" for agent-sized prompts beside the article's. */
  views?: ViewsBench | null;
  /** The audience view: the recorder with 100 WebSocket viewers following a replay, against none. */
  audience?: AudienceBench | null;
  /** Why a part did not run or could not be measured. */
  notes: string[];
}
export interface SoakSample {
  atSeconds: number;
  rssMiB: number;
  dbMiB: number;
  requestsSent: number;
}
export interface SoakBench {
  minutes: number;
  ratePerSecond: number;
  requestsSent: number;
  /** Responses that were not 2xx or failed. */
  errors: number;
  exchangesRecorded: number;
  lost: number;
  rssMiBStart: number;
  rssMiBMax: number;
  rssMiBEnd: number;
  dbMiBEnd: number;
  /** Bytes stored per exchange (DB + WAL ÷ exchanges). */
  dbBytesPerExchange: number;
  samples: SoakSample[];
}

export interface ProfileStep {
  name: string;
  /** Inclusive CPU time (self + callees), % of the recorder's busy samples. */
  percent: number;
  callers: { name: string; percent: number }[];
}
export interface ProfileBench {
  path: string;
  seconds: number;
  requests: number;
  rps: number;
  /** With the profiler on (it adds some overhead). */
  cpuMicrosPerRequest: number;
  /** CPU per request by thread during the load, from /proc (main = the forward path; "node" = worker threads). */
  threads: { name: string; microsPerRequest: number }[];
  /** The taps thread (the forward path). */
  topSelf: { name: string; percent: number }[];
  steps: ProfileStep[];
  /** The recording thread (recorder, SQLite), self time. */
  recording?: { topSelf: { name: string; percent: number }[]; steps: ProfileStep[]; sqlitePercent?: number };
}

export type Section = "proxies" | "prompt" | "ui" | "soak" | "start";

export interface BenchResults {
  startedAt: string;
  rounds: number;
  seconds: number;
  /** 1-minute load average when the run started and ended: other work on the box skews every figure. */
  loadAverage: { start: number; end: number };
  /** When each section was measured (a partial run carries the others over from earlier runs). */
  sectionsAt: Partial<Record<Section, string>>;
  contenders: ContenderSummary[];
  skipped: { name: string; reason: string }[];
  /** Where the recorder's CPU goes (measured with the proxies). */
  profile: ProfileBench | null;
  prompt: PromptBench | null;
  ui: UiBench | null;
  soak: SoakBench | null;
  /** The API thread's event-loop delay while a 1 MB prompt's views are built (tokenised on their own thread). */
  bigPrompt?: BigPromptBench | null;
  /** A stream's largest inter-line gap with and without concurrent API readers (measured with the proxies). */
  readers?: ReadersBench | null;
  /** Real agents' requests through the model tap (measured with the proxies). */
  agentLoad?: AgentLoadBench | null;
  /** `npm start` and `hopscope wrap` against their floors (bench/start.ts). */
  start?: StartBench | null;
}

/** The agent-sized load (bench/agent-load.ts). */
export interface AgentLoadSide {
  rps: number;
  /** CPU µs per answered exchange, of the whole process. */
  cpuMicros: number;
  answered: number;
}
export interface AgentLoadRecorder extends AgentLoadSide {
  /** CPU µs per answered exchange of the taps thread and of the recording thread. */
  tapsMicros: number;
  recordingMicros: number;
  /** The recording thread's CPU µs per exchange it stored during the load (what recording one costs). */
  recordingPerStoredMicros: number;
  /** Exchanges stored complete in SQLite, over the recorder's life (warm-up included, as is `answered`). */
  stored: number;
  /** What /api/health said after the load: its `ok`, and the exchanges it counted as not stored. */
  healthOk: boolean;
  notStored: number;
  /** How long after the load's last answer the recorder had committed everything. */
  drainMs: number;
}
export interface AgentLoadCase {
  agent: string;
  path: string;
  bodyBytes: number;
  node: AgentLoadSide;
  /** The pass-through that also stores every exchange's bytes in SQLite and does nothing else: the floor. */
  floor?: AgentLoadSide;
  hopscope: AgentLoadRecorder;
}
export interface AgentLoadBench {
  rounds: number;
  seconds: number;
  connections: number;
  cases: AgentLoadCase[];
}
