/**
 * The ask box: sends the user's message to the agent through the recorder (`POST /api/ask`, which
 * goes through the agent tap so it is recorded like any user → host call), and knows which model
 * answers (a real Ollama or the stand-in) and which lesson is on, from `GET /api/config`.
 */
import { computed, createModel, signal } from "@preact/signals";
import { AgentResponseSchema, type AgentDialect } from "@hopscope/shared/agent/schemas";
import { AppConfigSchema, type AppConfig } from "@hopscope/shared/trace/api";
import { getJson, send } from "../api/http";
import type { TraceModel } from "./TraceModel";

/** `beforeSend` runs as the question goes out (the app resumes following live there). */
export const AskModel = createModel((trace: TraceModel, beforeSend: () => void = () => {}) => {
  const config = signal<AppConfig | null>(null);
  const configError = signal<string | null>(null);
  const message = signal("Add buy milk to my notes");
  /** The dialect the host speaks to the model for the next question; null: the host's AGENT_DIALECT. */
  const dialect = signal<AgentDialect | null>(null);
  const sending = signal(false);
  const error = signal<string | null>(null);
  /** The open trace's conversation (its /agent call's conversationId): the ask box can continue it. */
  const openConversation = computed(() => {
    for (const x of trace.list.value)
      if (x.classification.kind === "agent" && x.classification.conversationId) return x.classification.conversationId;
    return null;
  });
  /** Send the next question as a turn of the open conversation (the host resends its history to the model). */
  const continueOpen = signal(false);

  /**
   * Reads which model and lesson are behind the recorder. `background`: a refresh as traces arrive; if the
   * recorder has just gone away the connection indicator already says so, and the badges keep what they knew.
   */
  async function loadConfig(background = false): Promise<void> {
    try {
      config.value = await getJson("/api/config", AppConfigSchema);
      configError.value = null;
    } catch (e) {
      if (background) {
        console.warn("[hopscope] /api/config refresh failed; the badges keep what they showed", e);
        return;
      }
      configError.value = e instanceof Error ? e.message : String(e);
      console.error("[hopscope] /api/config failed", e);
    }
  }

  async function ask(): Promise<void> {
    const text = message.value.trim();
    if (!text || sending.value) return;
    sending.value = true;
    error.value = null;
    beforeSend();
    try {
      // The reply is on screen as the last hop; the answer is validated so a broken host shows an error.
      const conversationId = continueOpen.value ? openConversation.value : null;
      const body = {
        message: text,
        ...(conversationId ? { conversationId } : {}),
        ...(dialect.value ? { dialect: dialect.value } : {}),
      };
      await send("POST", "/api/ask", body, AgentResponseSchema);
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e);
      console.error("[hopscope] ask failed", e);
    } finally {
      sending.value = false;
      void loadConfig(); // the first model call tells the recorder whether the model is simulated
    }
  }

  return { config, configError, message, dialect, sending, error, openConversation, continueOpen, loadConfig, ask };
});
export type AskModel = InstanceType<typeof AskModel>;
