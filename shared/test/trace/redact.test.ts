import { describe, expect, it } from "vitest";
import { REDACTED, isSecretHeader, isSecretParam, redactUrl } from "../../src/trace/redact";

describe("the one redaction rule set", () => {
  it.each([
    "Authorization",
    "Proxy-Authorization",
    "Cookie",
    "Set-Cookie",
    "X-Auth-Key",
    "X-Api-Key",
    "Api-Key",
    "X-Goog-Api-Key",
    "OpenAI-Api-Key",
    "X-Auth-Token",
    "X-Refresh-Token",
    "X-CSRF-Token",
    "X-Amz-Security-Token",
    "X-Client-Secret",
    "X-Hub-Signature-256",
    // Credential-looking headers of well-known services and frameworks.
    "X-CSRFToken",
    "X-XSRF-TOKEN",
    "X-Csrf-Token",
    "X-Access-Key-Id",
    "X-Access-Token",
    "Private-Token",
    "Job-Token",
    "X-Session-Token",
    "X-Amz-Credential",
    "Ocp-Apim-Subscription-Key",
    "X-Functions-Key",
    "X-Shopify-Access-Token",
    "X-Figma-Token",
    "X-Vault-Token",
    "X-Passwd",
    "X-Secret-Key",
    "X-Signature",
    "Api-Key-Id",
  ])("hides the header %s", (name) => {
    expect(isSecretHeader(name)).toBe(true);
    expect(isSecretHeader(name.toLowerCase())).toBe(true);
  });

  it.each([
    ":authority",
    "Content-Type",
    "Mcp-Session-Id",
    "Mcp-Protocol-Version",
    "WWW-Authenticate",
    "traceparent",
    "x-hopscope-lesson",
    "Accept",
    "User-Agent",
    "Anthropic-Version",
    "X-Claude-Code-Session-Id",
    "Session-Id",
    "anthropic-ratelimit-tokens-remaining",
    "x-ratelimit-remaining-tokens",
    "X-Request-Id",
    "OpenAI-Organization",
  ])("shows the header %s", (name) => {
    expect(isSecretHeader(name)).toBe(false);
  });

  it.each([
    "api_key",
    "apikey",
    "API-KEY",
    "key",
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "sig",
    "signature",
    "client_secret",
    "password",
    "X-Amz-Signature",
    "hub.verify_token",
  ])("hides the query parameter %s", (name) => {
    expect(isSecretParam(name)).toBe(true);
  });

  it.each(["model", "q", "stream", "keyword", "tokens", "monkey", "page"])("shows the query parameter %s", (name) => {
    expect(isSecretParam(name)).toBe(false);
  });

  it("redacts values in absolute and relative URLs, byte for byte otherwise", () => {
    expect(redactUrl("http://127.0.0.1:11434/api/chat?api_key=s&model=qwen#x")).toBe(
      `http://127.0.0.1:11434/api/chat?api_key=${REDACTED}&model=qwen#x`,
    );
    expect(redactUrl("/p?sig=abc&a=%20")).toBe(`/p?sig=${REDACTED}&a=%20`);
  });
});
