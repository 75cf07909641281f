// Lint in `npm test` (`npm run lint`): typescript-eslint's recommended rules, plus the ones this codebase
// already follows, so a new file is held to what the others do.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { functionSize } from "./eslint/function-size.js";

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "data/**", "traces/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module" },
    rules: {
      // Small modules named after what they export (the brief): none over 400 lines, counted raw as a reader
      // scrolls them.
      "max-lines": ["error", { max: 400 }],
      // Functions named after what they do, each one screen long: 80 lines of code.
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
      // Branches per function (ESLint's classic count, where each `case`, `&&`, `||`, `??` and `?.` adds one, so
      // a JSX component's optional fields count too): past 20 a function is doing several things and is split.
      complexity: ["error", 20],
      // `_name` marks a value left unused on purpose (a rest-sibling omitted, a callback slot).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // The compose test matches YAML indentation, where two literal spaces read better than ` {2}`.
      "no-regex-spaces": "off",
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    // Servers log through their injected logger (@hopscope/nodekit/logger), so tests stay silent.
    files: ["apps/{host,mcp-server,model-sim,proxy}/src/**", "nodekit/src/**", "shared/src/**"],
    rules: { "no-console": "error" },
  },
  {
    // shared/ runs in the browser too: Node-only helpers live in nodekit/, never here.
    files: ["shared/src/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["node:*", "@hopscope/nodekit", "@hopscope/nodekit/*"],
              message: "shared/ is browser-pure; put Node-only code in nodekit/",
            },
          ],
        },
      ],
    },
  },
  // The recorder's folders are its threads (docs/recorder.md): each imports link/ (the wire between them) and
  // never another thread's folder, so no folder pair imports both ways. server.ts and app.ts at the top
  // compose them. The stdio ingest, on the main thread, names and bounds its traces by the recording
  // thread's own rules (recording/trace-title.ts, recording/recent-map.ts): those two it may read.
  ...Object.entries({
    tap: ["recording", "main"],
    recording: ["tap", "main"],
    link: ["tap", "recording", "main"],
    main: ["tap", "recording"],
  }).map(([folder, others]) => ({
    files: [`apps/proxy/src/${folder}/**`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: others.map((other) => ({
            regex: `^(\\.\\./)+${other}/${other === "recording" ? "(?!trace-title$|recent-map$)" : ""}`,
            message: `apps/proxy/src/${folder}/ runs on its own thread: reach ${other}/ through link/ (see docs/recorder.md)`,
          })),
        },
      ],
    },
  })),
  {
    // The SQLite worker is plain JavaScript run by Node.
    files: ["**/*.mjs"],
    languageOptions: { globals: { Buffer: "readonly", process: "readonly", console: "readonly", URL: "readonly" } },
  },
  {
    // Tests poke into JSON answers whose shape they assert right after; `any` there is the assertion's input.
    files: ["**/test/**", "tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // A `describe(...)` callback only groups cases, and its file's 400-line cap bounds it; every case and helper
    // inside it is held to the same 80 lines as the code it tests.
    files: ["**/test/**", "tests/**"],
    plugins: { "function-size": functionSize },
    rules: {
      "max-lines-per-function": "off",
      "function-size/max-lines-per-case": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Not split yet: functions over 80 lines. Each file leaves this list when its functions are split.
    files: [
      "apps/proxy/src/main/views/exchange-views.ts",
      "apps/web/src/components/PromptTab.tsx",
      "apps/web/src/components/PromptText.tsx",
      "apps/web/src/components/TokenBudget.tsx",
    ],
    rules: { "max-lines-per-function": "off" },
  },
  {
    // Not split yet: functions over complexity 20. Each file leaves this list when its functions are split.
    files: ["apps/proxy/src/main/views/exchange-views.ts", "apps/web/src/components/PromptTab.tsx"],
    rules: { complexity: "off" },
  },
);
