/**
 * Qwen Code 0.24.4, installed as a learner would (pinned, into the agent cache), set up by the README's "Bring your own
 * agent" recipe and asked "Add buy milk to my notes" against the real stack with the stand-in.
 */
import { describeAgentRun } from "../support/agent-e2e";

describeAgentRun("qwen-code", "Qwen Code 0.24.4 through hopscope");
