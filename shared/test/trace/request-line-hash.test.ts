import { describe, expect, it } from "vitest";
import { hashBytes, requestLineOf } from "../../src/trace/request-line";

const enc = (s: string) => new TextEncoder().encode(s);

describe("hashBytes (the body's hash)", () => {
  it("gives the same hash for the same bytes wherever they sit in memory", () => {
    const body = enc(`{"model":"x","messages":[${'{"role":"user","content":"héllo ✓"},'.repeat(50)}{}]}`);
    const shifted = new Uint8Array(body.length + 3);
    shifted.set(body, 3);
    expect(hashBytes(shifted.subarray(3))).toBe(hashBytes(body));
    expect(hashBytes(body)).toMatch(/^[0-9a-z]{11}$/);
  });

  it("changes when any one bit changes, in every lane and in the tail", () => {
    const body = enc("x".repeat(16 * 8 + 7));
    const seen = new Set([hashBytes(body)]);
    for (let i = 0; i < body.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const changed = body.slice();
        changed[i] = body[i]! ^ (1 << bit);
        seen.add(hashBytes(changed));
      }
    }
    expect(seen.size).toBe(body.length * 8 + 1);
  });

  it("tells bodies apart that differ only by trailing zero bytes", () => {
    const hashes = new Set([0, 1, 2, 3, 4, 15, 16, 17].map((n) => hashBytes(new Uint8Array(n))));
    expect(hashes.size).toBe(8);
  });

  it("is the same for a body given as text and as its UTF-8 bytes", () => {
    const text = JSON.stringify({ model: "m", messages: [{ role: "user", content: "Add buy milk — ✓ 🥛" }] });
    const native = JSON.parse(text) as Record<string, unknown>;
    expect(requestLineOf(native, text).body).toBe(requestLineOf(native, enc(text)).body);
    expect(requestLineOf(native, text).body).toBe(hashBytes(enc(text)));
  });
});
