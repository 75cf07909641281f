import { defineConfig } from "vitest/config";

// One runner for the whole workspace: unit tests of shared/, integration tests of each app (real
// servers on port 0), end-to-end tests under tests/, and browser tests (real Chromium) under apps/web.
export default defineConfig({
  test: {
    include: [
      "shared/test/**/*.test.ts",
      "nodekit/test/**/*.test.ts",
      "apps/*/test/**/*.test.ts",
      "tests/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/dist/**"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Servers in tests bind port 0, so files can run in parallel; two cores, so keep it modest.
    maxWorkers: 2,
  },
});
