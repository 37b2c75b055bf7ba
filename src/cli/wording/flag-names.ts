import type { FlagKey } from "../../config/resolve.js";

/** The command-line flag behind each setting the config resolver checks: its problems name the flag the user typed. */
const FLAGS: Record<FlagKey, string> = {
  model: "--model",
  baseURL: "--base-url",
  maxFixAttempts: "--max-fix-attempts",
  db: "--db",
  maxTurns: "--max-turns",
  branch: "--branch",
  requireGate: "--require-gate",
  maxTokens: "--max-tokens",
  maxCost: "--max-cost",
  maxSteps: "--max-steps",
  maxTime: "--max-time",
  parallel: "--parallel",
  knownFailure: "--known-failure",
};

/** A flag's name as typed on yolo's command line (`maxTurns` → `--max-turns`). */
export function cliFlagName(flag: FlagKey): string {
  return FLAGS[flag];
}
