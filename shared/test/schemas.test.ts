import { describe, expect, it } from "vitest";
import { ChatRequestSchema } from "@hopscope/shared/ollama/schemas";
import { ServerFrameSchema } from "@hopscope/shared/trace/schemas";

describe("ollama schemas", () => {
  it("lowercases roles the way Ollama decodes them", () => {
    const req = ChatRequestSchema.parse({ model: "qwen2.5:7b", messages: [{ role: "User", content: "hi" }] });
    expect(req.messages[0]?.role).toBe("user");
  });
  it("rejects a request without a model, naming the field", () => {
    const r = ChatRequestSchema.safeParse({ messages: [] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["model"]);
  });
});

describe("trace frames", () => {
  it("rejects an unknown frame type", () => {
    expect(ServerFrameSchema.safeParse({ type: "nope", seq: 1 }).success).toBe(false);
  });
});
