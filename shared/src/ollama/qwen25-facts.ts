/**
 * What an Ollama with `qwen2.5:7b` pulled says about it: the `/api/tags` entry, `details`, the GGUF
 * key/values `/api/show` returns as `model_info`, and capabilities. Pure data, so the stand-in model,
 * the recorder and the UI quote the same facts.
 *
 * Source: ../shared/reference/ollama-qwen25.md §1 (size, digest, details as recorded by users), §7
 * (tokenizer ids) and §8 (model_info keys, capabilities). The template and system text live with the
 * prompt engine (`@hopscope/shared/prompt/qwen25`).
 */
import type { ModelDetails } from "./schemas";

/** The tag the article pulls (`ollama pull qwen2.5:7b`). */
export const QWEN25_MODEL = "qwen2.5:7b";
/** Size of all layers, bytes, as `/api/tags` reports it. */
export const QWEN25_SIZE = 4683087332;
/** Manifest digest, as `/api/tags` reports it (no `sha256:` prefix). */
export const QWEN25_DIGEST = "845dbda0ea48ed749caafd9e6037047aa19acfcfd82e704d7ca97d631a0b697e";
/** A fixed pull time: a real server reports the manifest file's mtime. */
export const QWEN25_MODIFIED_AT = "2026-10-31T18:00:21.583923501Z";
/** The model layer's digest, which `/api/show`'s generated Modelfile names in its FROM line. */
export const QWEN25_MODEL_BLOB = "sha256-2bada8a7450677000f678be90653b85d364de7db25eb5ea54136ada5f3933730";
/** Native context window of the weights (`qwen2.context_length`). */
export const QWEN25_CONTEXT_LENGTH = 32768;
/** Ollama's default `num_ctx` up to v0.13, which `/api/ps` reports as `context_length`. */
export const OLLAMA_DEFAULT_NUM_CTX = 4096;
/** Bytes a loaded qwen2.5:7b occupies, as `/api/ps` reports on a GPU with num_ctx 4096. */
export const QWEN25_LOADED_SIZE = 5_368_709_120;

/** `details`, in Go struct order (parent_model, format, family, families, parameter_size, quantization_level). */
export const QWEN25_DETAILS: ModelDetails = {
  parent_model: "",
  format: "gguf",
  family: "qwen2",
  families: ["qwen2"],
  parameter_size: "7.6B",
  quantization_level: "Q4_K_M",
};

/** `capabilities` of `/api/show`: no thinking, no vision, no insert (suffix). */
export const QWEN25_CAPABILITIES = ["completion", "tools"] as const;

/** Token ids the stand-in needs to be honest about counts (§7). */
export const QWEN25_TOKENS = {
  endOfText: 151643,
  imStart: 151644,
  imEnd: 151645,
  toolCall: 151657,
  toolCallEnd: 151658,
} as const;

/**
 * `model_info` as `/api/show` (not verbose) returns it: the GGUF key/values minus `general.name` and
 * the chat template, arrays longer than 5 emptied, keys sorted as a Go map marshals them.
 */
export const QWEN25_MODEL_INFO: Record<string, unknown> = {
  "general.architecture": "qwen2",
  "general.basename": "Qwen2.5",
  "general.file_type": 15,
  "general.finetune": "Instruct",
  "general.languages": [],
  "general.license": "apache-2.0",
  "general.license.link": "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/blob/main/LICENSE",
  "general.parameter_count": 7615616512,
  "general.quantization_version": 2,
  "general.size_label": "7B",
  "general.tags": ["chat", "text-generation"],
  "general.type": "model",
  "qwen2.attention.head_count": 28,
  "qwen2.attention.head_count_kv": 4,
  "qwen2.attention.layer_norm_rms_epsilon": 0.000001,
  "qwen2.block_count": 28,
  "qwen2.context_length": QWEN25_CONTEXT_LENGTH,
  "qwen2.embedding_length": 3584,
  "qwen2.feed_forward_length": 18944,
  "qwen2.rope.freq_base": 1000000,
  "tokenizer.ggml.add_bos_token": false,
  "tokenizer.ggml.bos_token_id": QWEN25_TOKENS.endOfText,
  "tokenizer.ggml.eos_token_id": QWEN25_TOKENS.imEnd,
  "tokenizer.ggml.merges": [],
  "tokenizer.ggml.model": "gpt2",
  "tokenizer.ggml.padding_token_id": QWEN25_TOKENS.endOfText,
  "tokenizer.ggml.pre": "qwen2",
  "tokenizer.ggml.token_type": [],
  "tokenizer.ggml.tokens": [],
};
