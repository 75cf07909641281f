/**
 * `max-lines-per-function` for test files, with one exception: the callback passed to `describe(...)` only groups
 * cases (the file's own cap bounds it), so it is not held to the limit; every case and helper inside it is.
 */
import { builtinRules } from "eslint/use-at-your-own-risk";

const core = builtinRules.get("max-lines-per-function");

function isDescribeCallback(node) {
  const call = node.parent;
  if (call?.type !== "CallExpression" || !call.arguments.includes(node)) return false;
  const callee = call.callee.type === "MemberExpression" ? call.callee.object : call.callee;
  return callee.type === "Identifier" && callee.name === "describe";
}

export const functionSize = {
  rules: {
    "max-lines-per-case": {
      meta: { ...core.meta, docs: { description: "max-lines-per-function, describe() callbacks excepted" } },
      create(context) {
        const filtered = Object.create(context, {
          report: { value: (descriptor) => isDescribeCallback(descriptor.node) || context.report(descriptor) },
        });
        return core.create(filtered);
      },
    },
  },
};
