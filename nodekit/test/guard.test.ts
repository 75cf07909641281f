import { describe, expect, it } from "vitest";
import { allowedHosts } from "../src/config";
import { checkRequest, hostAllowed, originAllowed, type GuardPolicy } from "../src/guard";

const local: GuardPolicy = { allowedHosts: [], bindHost: "127.0.0.1" };
const compose: GuardPolicy = {
  allowedHosts: allowedHosts().parse("mcp-server:8080, Proxy:7071,model-sim"),
  bindHost: "0.0.0.0",
};
const post = (headers: { host?: string; origin?: string; contentType?: string }, hasBody = true) => ({
  method: "POST",
  host: headers.host ?? "127.0.0.1:8080",
  origin: headers.origin,
  contentType: headers.contentType,
  hasBody,
});

describe("Host (DNS rebinding)", () => {
  it.each([
    "localhost:8080",
    "LOCALHOST",
    "127.0.0.1:7070",
    "127.1.2.3",
    "[::1]:8080",
    "app.localhost:5173",
    "localhost.:80",
  ])("accepts the loopback name %s", (host) => {
    expect(hostAllowed(host, local)).toBe(true);
  });

  it.each([
    "evil.example:8080",
    "localhost.evil.example",
    "127.0.0.1.evil.example",
    "mcp-server:8080",
    "",
    "0.0.0.0:8080",
  ])("refuses %j when nothing else is configured", (host) => {
    expect(hostAllowed(host, local)).toBe(false);
  });

  it("accepts configured names: name:port only on that port, a bare name on any; and the bound address", () => {
    expect(hostAllowed("mcp-server:8080", compose)).toBe(true);
    expect(hostAllowed("mcp-server:9999", compose)).toBe(false);
    expect(hostAllowed("mcp-server", compose)).toBe(false);
    expect(hostAllowed("proxy:7071", compose)).toBe(true);
    expect(hostAllowed("model-sim:11435", compose)).toBe(true);
    expect(hostAllowed("0.0.0.0:7073", compose)).toBe(true);
    expect(hostAllowed("evil.example:8080", compose)).toBe(false);
  });

  it("decides each Host again after the one it last accepted (the repeat is remembered, nothing else)", () => {
    const policy: GuardPolicy = { allowedHosts: [], bindHost: "127.0.0.1" };
    expect(hostAllowed("localhost:8080", policy)).toBe(true);
    expect(hostAllowed("localhost:8080", policy)).toBe(true);
    expect(hostAllowed("evil.example:8080", policy)).toBe(false);
    expect(hostAllowed("evil.example:8080", policy)).toBe(false);
    expect(hostAllowed("localhost:8080", policy)).toBe(true);
    // Another policy does not inherit what this one accepted.
    expect(hostAllowed("0.0.0.0:7073", compose)).toBe(true);
    expect(hostAllowed("0.0.0.0:7073", policy)).toBe(false);
  });

  it("a missing Host is refused", () => {
    expect(
      checkRequest({ method: "GET", host: undefined, origin: undefined, contentType: undefined, hasBody: false }, local)
        ?.reason,
    ).toBe("host");
  });
});

describe("Origin (other web pages)", () => {
  it("accepts no Origin, this same origin, loopback pages and configured names", () => {
    expect(originAllowed(undefined, "127.0.0.1:7070", local)).toBe(true);
    expect(originAllowed("http://127.0.0.1:7070", "127.0.0.1:7070", local)).toBe(true);
    expect(originAllowed("http://localhost:5173", "127.0.0.1:7070", local)).toBe(true);
    expect(originAllowed("http://proxy:7071", "proxy:7071", compose)).toBe(true);
    expect(originAllowed("http://model-sim:3000", "127.0.0.1", compose)).toBe(true);
  });

  it.each([
    "https://evil.example",
    "null",
    "http://localhost.evil.example",
    "file:///tmp/x.html",
    "chrome-extension://abc",
  ])("refuses %s", (origin) => {
    expect(originAllowed(origin, "127.0.0.1:7070", local)).toBe(false);
    expect(checkRequest(post({ origin, contentType: "application/json" }), local)).toMatchObject({
      status: 403,
      reason: "origin",
    });
  });
});

describe("Content-Type of state-changing requests", () => {
  it.each([
    "text/plain",
    "text/plain;charset=UTF-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
  ])("refuses %s with 415", (contentType) => {
    expect(checkRequest(post({ contentType }), local)).toMatchObject({ status: 415, reason: "content-type" });
  });

  it("refuses a body without a type, accepts JSON types, and a bodiless POST or DELETE", () => {
    expect(checkRequest(post({}), local)?.status).toBe(415);
    expect(checkRequest(post({ contentType: "application/json; charset=utf-8" }), local)).toBeNull();
    expect(checkRequest(post({ contentType: "application/vnd.api+json" }), local)).toBeNull();
    expect(checkRequest(post({}, false), local)).toBeNull();
    expect(checkRequest({ ...post({}, false), method: "DELETE" }, local)).toBeNull();
    expect(checkRequest({ ...post({ contentType: "text/plain" }), method: "GET" }, local)).toBeNull();
  });

  it("is not checked where the policy says so (the model tap, the stand-in: Ollama decodes any type)", () => {
    expect(
      checkRequest(post({ contentType: "application/x-www-form-urlencoded" }), { ...local, requireJson: false }),
    ).toBeNull();
  });
});

describe("ALLOWED_HOSTS", () => {
  it("is a comma-separated list of names, refused when it is not", () => {
    expect(allowedHosts().parse(undefined)).toEqual([]);
    expect(allowedHosts().parse(" host:8081 ,, proxy ")).toEqual(["host:8081", "proxy"]);
    expect(allowedHosts().safeParse("http://proxy:7071/").success).toBe(false);
  });
});
