/**
 * Codex 0.169.0, installed as a learner would (pinned, into the agent cache), set up by the README's "Bring your own
 * agent" recipe and asked "Add buy milk to my notes" against the real stack with the stand-in.
 */
import { describeAgentRun } from "../support/agent-e2e";

describeAgentRun("codex", "Codex 0.169.0 through hopscope");
