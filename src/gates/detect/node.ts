import { checkGate, exists, readJsonObject, testGate, type Detector } from "./files.js";

/** The script `npm init` writes; running it would fail every run for a project that simply has no tests. */
export const NPM_PLACEHOLDER = /no test specified/i;

export type NodeManager = "npm" | "pnpm" | "yarn" | "bun";

/** How each package manager runs the `test` script and any other script (`bun test` would be bun's own runner). */
const RUN: Record<NodeManager, { test: string; run: string }> = {
  npm: { test: "npm test", run: "npm run" },
  pnpm: { test: "pnpm test", run: "pnpm run" },
  yarn: { test: "yarn test", run: "yarn run" },
  bun: { test: "bun run test", run: "bun run" },
};

/** Type-check script names seen in the wild, first found wins. */
const TYPECHECK_SCRIPTS = ["typecheck", "type-check", "check-types"];

/**
 * The package manager a project uses: the `packageManager` field (corepack's) when set, else its lockfile,
 * else npm.
 */
export function nodeManager(root: string, pkg: Record<string, unknown> | null): NodeManager {
  const declared = typeof pkg?.packageManager === "string" ? pkg.packageManager.split("@")[0] : "";
  if (declared === "npm" || declared === "pnpm" || declared === "yarn" || declared === "bun") return declared;
  if (exists(root, "bun.lockb") || exists(root, "bun.lock")) return "bun";
  if (exists(root, "pnpm-lock.yaml")) return "pnpm";
  if (exists(root, "yarn.lock")) return "yarn";
  return "npm";
}

/** npm, pnpm, yarn and bun projects: the `test` script, and `lint` / type-check scripts as optional gates. */
export const detectNode: Detector = (root) => {
  const pkg = readJsonObject(root, "package.json");
  if (!pkg) return null;
  const manager = nodeManager(root, pkg);
  const scripts = (pkg.scripts !== null && typeof pkg.scripts === "object" ? pkg.scripts : {}) as Record<string, unknown>;
  const has = (name: string) => typeof scripts[name] === "string" && (scripts[name] as string).trim() !== "";
  const test = has("test") && !NPM_PLACEHOLDER.test(scripts.test as string) ? testGate(RUN[manager].test) : null;
  const checks = [];
  if (has("lint")) checks.push(checkGate("lint", `${RUN[manager].run} lint`));
  const typecheck = TYPECHECK_SCRIPTS.find(has);
  if (typecheck) checks.push(checkGate("typecheck", `${RUN[manager].run} ${typecheck}`));
  return { ecosystem: manager, test, checks };
};
