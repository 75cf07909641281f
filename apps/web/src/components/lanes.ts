/** Horizontal position of each lane's lifeline, in % of the lanes area (the header and every row share it). */
import type { Lane } from "../models/hops";

export const LANE_X: Record<Lane, number> = { you: 7, host: 33, model: 60, mcp: 87 };
/** The fifth lane: the notes file the MCP server owns (drawn by NotesLane; its name sits atop its line, not in the header). */
export const FILE_X = 97;
export const LANE_NAMES: Record<Lane, string> = { you: "You", host: "Host", model: "Model server", mcp: "MCP server" };

/** What each lane is, for learners (shown on hover). */
export const LANE_HELP: Record<Lane, string> = {
  you: "You, asking a question (through the ask box, like curl to POST /agent).",
  host: "The agent host: keeps the conversation, runs the loop, and makes every network call. It decides and acts.",
  model:
    "The model server (Ollama, or hopscope's stand-in): turns the JSON into one prompt text, runs the model, parses its text back into JSON. Text in, text out.",
  mcp: "The MCP server: owns the tools. The only thing that ever touches the notes file.",
};
