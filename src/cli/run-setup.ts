import { isAbsolute, resolve } from "node:path";
import type { RunFlags } from "../config/run-flags.js";
import type { LaunchReplay, SetupFact } from "../engine/api.js";
import { ConfigError } from "../errors.js";
import { shellQuote } from "./wording/shell-quote.js";

/** The flags of run and resume that this module reads (picked from the one RunFlags type). */
export type RunSetupFlags = Pick<RunFlags, "ci" | "json" | "record" | "replay" | "branch" | "allowDirty" | "db" | "model" | "baseUrl" | "testCmd">;

/**
 * Unattended: `--ci`, or `CI` set to anything non-empty (as CI services do). Never prompts, never reads stdin;
 * a question ends the run with exit 3 and the command that answers it.
 */
export function isUnattended(flags: Pick<RunSetupFlags, "ci">, env: Readonly<Record<string, string | undefined>>): boolean {
  return flags.ci === true || (env.CI ?? "") !== "";
}

/** The replay session, read and checked before anything is created; a bad file or flag combination is exit 2. */
export async function loadReplay(cwd: string, flags: RunSetupFlags): Promise<LaunchReplay | null> {
  if (flags.record && flags.replay) throw new ConfigError("--record and --replay exclude each other: record a session against a model, then replay it.");
  if (!flags.replay) return null;
  const { loadSession, recordedModel } = await import("../llm/recording-replay.js");
  const file = isAbsolute(flags.replay) ? flags.replay : resolve(cwd, flags.replay);
  const exchanges = loadSession(file);
  return { file, exchanges, model: recordedModel(exchanges) };
}

/** ` --db x --replay y …`: the given options a resume needs to find the thread and talk to the same model. */
export function resumeArgs(flags: RunSetupFlags): string {
  const pairs: [string, string | undefined][] = [
    ["--db", flags.db],
    ["--model", flags.model],
    ["--base-url", flags.baseUrl],
    ["--replay", flags.replay],
    ["--record", flags.record],
    ["--test-cmd", flags.testCmd],
  ];
  return pairs
    .filter((p): p is [string, string] => typeof p[1] === "string" && p[1] !== "")
    .map(([flag, value]) => ` ${flag} ${shellQuote(value)}`)
    .join("");
}

export { shellQuote };

/** The refusal of a model request by a thread that needs a model when none is configured. */
export function noModelError(): ConfigError {
  return new ConfigError(
    "this thread needs a model to continue, and none is configured: set OPENAI_API_KEY, or point OPENAI_BASE_URL (or --base-url) at an OpenAI-compatible server.",
  );
}

/** A start-of-leg fact about the project and the checkout, in one plain line. */
export function setupText(fact: SetupFact): string {
  switch (fact.kind) {
    case "project-nearer":
      return `The project is ${fact.root} (its own yolo.config.ts is nearer than the repository's top level ${fact.gitRoot})`;
    case "not-a-repository":
      return "Not a git repository: show --diff, --branch and the report's changed files need one (git init, then commit)";
    case "dirty-start": {
      const names = fact.dirty.slice(0, 3).map((l) => l.slice(3));
      const list = `${names.join(", ")}${fact.dirty.length > names.length ? `, +${fact.dirty.length - names.length} more` : ""}`;
      return `The work tree had uncommitted changes (${list}): kept as yours, show --diff and the report list only yolo's changes`;
    }
    case "branch":
      return branchNote(fact.branch, fact.from);
  }
}

/** Branch mode switches the checkout: say to which branch, that it stays checked out, and the command back. */
function branchNote(branch: string, from: string | null): string {
  const back = from ? `git switch ${from}` : "git checkout - (the checkout before it)";
  return `Working on branch ${branch}: each dev iteration is committed there, and it stays checked out after the run. Go back with: ${back}`;
}
