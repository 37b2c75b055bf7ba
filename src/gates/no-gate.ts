import fs from "node:fs";
import path from "node:path";
import { defaultGates } from "./detect.js";
import { NPM_PLACEHOLDER } from "./detect/node.js";

/**
 * Why a project has no gate, in words naming the real cause, for the warning at a run's start and for
 * `--require-gate`. `configured` is the config's `gates` (null: not configured, detection found nothing).
 */
export function noGateReason(root: string, configured: unknown[] | null): string {
  if (configured !== null) return "yolo.config.ts sets `gates: []`";
  if (defaultGates(root).length > 0)
    return "the gates detected here cannot run: their programs are not installed (the warnings above name them), and yolo.config.ts sets no gates";
  const file = path.join(root, "package.json");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return "there is no package.json and no test command was detected, and yolo.config.ts sets no gates";
  }
  let test: unknown;
  try {
    test = (JSON.parse(text) as { scripts?: { test?: unknown } } | null)?.scripts?.test;
  } catch (error) {
    return `package.json cannot be read as JSON (${(error as Error).message}), and yolo.config.ts sets no gates`;
  }
  if (typeof test !== "string" || !test.trim()) return "package.json has no test script, and yolo.config.ts sets no gates";
  if (NPM_PLACEHOLDER.test(test)) return `package.json's test script is npm's placeholder (${JSON.stringify(test)}), and yolo.config.ts sets no gates`;
  return "no gate command was detected, and yolo.config.ts sets no gates";
}

/** The warning said at the start of a `run` thread that has no gate, in the engine's neutral words (the CLI adds its flag). */
export function noGateWarning(reason: string): string {
  return `No gate: ${reason}. Nothing but the agents' own verdicts decides whether the change works; the run will end "completed without a gate". Add a test script or \`gates\` in yolo.config.ts (requireGate: true refuses such runs).`;
}
