/** The one sentence the stand-in says about itself wherever it says it is simulated. */
import type { SimulatedInfo } from "@hopscope/shared/ollama/simulated";

export function simulatedInfo(): SimulatedInfo {
  return {
    simulated: true,
    simulator: "hopscope model-sim",
    note: "No model runs here: a deterministic policy picks each reply, written and streamed as qwen2.5 would through Ollama.",
  };
}
