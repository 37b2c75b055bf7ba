import { spawnSync } from "node:child_process";

// tests/setup/ink-outside-ci.ts unsets CI for Ink and keeps its value here.
const ciValue = process.env.YOLO_TEST_UNDER_CI ?? process.env.CI ?? "";
const UNDER_CI = ciValue !== "" && ciValue !== "false";

/**
 * Whether a toolchain command works here (`probe` exits 0). Missing: a printed reason and the caller skips —
 * except under CI, where `.ci/run` installs it, so its absence is an error.
 */
export function toolchain(name: string, probe: string[]): boolean {
  const result = spawnSync(probe[0], probe.slice(1), { stdio: "ignore", timeout: 30_000 });
  if (result.status === 0) return true;
  const why = `${name} is not available here (\`${probe.join(" ")}\` failed)`;
  if (UNDER_CI) throw new Error(`${why}; CI must have it: .ci/run installs it.`);
  console.warn(`${why}: its real-toolchain gate test is skipped.`);
  return false;
}
