import fs from "node:fs";
import path from "node:path";
import type { GateConfig } from "../config/schema.js";

/** The script `npm init` writes; running it would fail every run for a project that simply has no tests. */
const NPM_PLACEHOLDER = /no test specified/i;

const DEFAULT_GATE_TIMEOUT_S = 600;

/**
 * The gates to use when the config names none: `npm test` when package.json has a real test script,
 * otherwise none (a missing or unreadable package.json is not an error here).
 */
export function defaultGates(root: string): GateConfig[] {
  const script = testScript(path.join(root, "package.json"));
  if (!script || NPM_PLACEHOLDER.test(script)) return [];
  return [{ name: "test", command: "npm test", required: true, timeoutS: DEFAULT_GATE_TIMEOUT_S }];
}

function testScript(file: string): string | null {
  try {
    const pkg: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
    const test = (pkg as { scripts?: { test?: unknown } } | null)?.scripts?.test;
    return typeof test === "string" && test.trim() !== "" ? test : null;
  } catch {
    return null;
  }
}
