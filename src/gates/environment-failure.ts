import { existsSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../errors.js";
import type { GateResult } from "../events/schema.js";
import { ENVIRONMENT_WORDS } from "../events/judgement-words.js";

/** Why a failed gate says nothing about the code: the machine or the sandbox stopped the tools, not the tests. */
export interface EnvironmentFailure {
  kind: "read-only" | "missing-toolchain" | "permission" | "disk" | "network" | "not-installed";
  /** The output line that shows it. */
  line: string;
  /** What to do about it. */
  fix: string;
}

interface Rule {
  kind: EnvironmentFailure["kind"];
  pattern: RegExp;
  /** Only a path outside the project counts (a test of the project's own files may expect the error). */
  outsideOnly?: boolean;
  sandboxOnly?: boolean;
  fix(sandboxed: boolean): string;
}

const RULES: Rule[] = [
  {
    kind: "disk",
    pattern: /no space left on device|ENOSPC|disk quota exceeded|EDQUOT/i,
    fix: () => "Free disk space (or raise the quota) on the machine, then resume the thread.",
  },
  {
    kind: "read-only",
    pattern: /read-only file system|EROFS/i,
    outsideOnly: true,
    fix: (sandboxed) =>
      sandboxed
        ? 'A tool writes outside the project, which the sandbox keeps read-only: yolo gives Go, Gradle, pip/uv and npm a cache of their own; for another tool, point its cache into the project (an environment variable in the gate\'s command), or check with sandbox: "off".'
        : "A tool writes to a read-only folder outside the project: make it writable or point the tool's cache elsewhere.",
  },
  {
    kind: "missing-toolchain",
    pattern: /command not found|: not found|No such file or directory/i,
    fix: () => "Install the gate's toolchain on this machine (the sandbox sees the host's programs) or fix the gate's command, then resume.",
  },
  {
    kind: "permission",
    pattern: /permission denied|EACCES|EPERM/i,
    outsideOnly: true,
    fix: (sandboxed) =>
      sandboxed
        ? 'A tool was refused a file outside the project inside the sandbox: give it a folder in the project, or check with sandbox: "off".'
        : "A tool was refused a file outside the project: fix its permissions.",
  },
  {
    kind: "network",
    pattern:
      /could not resolve host|temporary failure in name resolution|network is unreachable|ENETUNREACH|EAI_AGAIN|getaddrinfo|dial tcp|connection refused.*(proxy|registry)|Could not transfer artifact|failed to download|unable to access 'https?:/i,
    sandboxOnly: true,
    fix: () =>
      'The sandbox has no network: fetch dependencies before the run (npm ci, go mod download, cargo fetch, mvn dependency:go-offline, pip download), or check with sandbox: "off".',
  },
];

/**
 * The environmental reason a failed gate failed, or null when its failure is the tests'. Only a gate that exited
 * non-zero (not on a timeout) is read, and a read-only or permission error counts only on a path outside the project:
 * inside it, the project's own files are the tests' business. A missing command is exit code 127 from the shell.
 */
export function environmentFailure(
  run: { passed: boolean; exitCode: number | null; timedOut: boolean },
  output: string,
  root: string,
  sandboxed: boolean,
): EnvironmentFailure | null {
  if (run.passed || run.timedOut || run.exitCode === null) return null;
  const lines = output.split("\n").map((l) => l.trim());
  for (const rule of RULES) {
    if (rule.sandboxOnly && !sandboxed) continue;
    if (rule.kind === "missing-toolchain" && run.exitCode !== 127) continue;
    const line = lines.find((l) => rule.pattern.test(l) && (!rule.outsideOnly || outsideProject(l, root)));
    if (line) return { kind: rule.kind, line: clip(line), fix: rule.fix(sandboxed) };
  }
  return notInstalled(lines, root);
}

const clip = (line: string) => (line.length > 300 ? `${line.slice(0, 300)}…` : line);
const NO_MODULE = /\bModuleNotFoundError: No module named '(\w+)/;

/**
 * A src-layout Python package the tests import that Python cannot find: `src/<name>` is in the project and nothing
 * at the top level would be found first, so the project is not installed in this environment (or its test runner not
 * told of src/). Every test that imports it fails at the baseline, and no change to the code fixes that. A module that
 * exists nowhere is not this: creating it may be the task.
 */
function notInstalled(lines: string[], root: string): EnvironmentFailure | null {
  for (const line of lines) {
    const name = NO_MODULE.exec(line)?.[1];
    if (!name) continue;
    const inSrc = existsSync(join(root, "src", name)) || existsSync(join(root, "src", `${name}.py`));
    const atTop = existsSync(join(root, name)) || existsSync(join(root, `${name}.py`));
    if (!inSrc || atTop) continue;
    return {
      kind: "not-installed",
      line: clip(line),
      fix: `The tests import ${name}, which is in src/ but not installed where the tests run: install the project in its environment (pip install -e .), or tell pytest where it is (pythonpath = ["src"] under [tool.pytest.ini_options]), then resume.`,
    };
  }
  return null;
}

// Whether a line names an absolute path outside the project (a line naming none says nothing about where).
function outsideProject(line: string, root: string): boolean {
  const paths = line.match(/(?<![\w.])\/[^\s:'"`)]+/g) ?? [];
  return paths.some((p) => p !== root && !p.startsWith(`${root}/`) && !p.startsWith("/tmp/yolo-cache/"));
}

/**
 * Ends the run when a gate failed because of its environment: the agent that fixes failures (`coder`, the node the
 * words name; null: none in the workflow) cannot fix the machine, and must not be asked to. A gate `spared` is
 * left to its judgement instead (an optional lint broken at the baseline: nobody asked for it).
 */
export function refuseEnvironmentFailures(results: readonly GateResult[], coder: string | null, spared: (r: GateResult) => boolean = () => false): void {
  const failed = results.find((r) => r.environment && !spared(r));
  if (failed?.environment) throw new ConfigError(sayEnvironmentFailure(failed.name, failed.environment, coder));
}

/** The words of an environment failure, for the error that ends the run (`coder`: who was not sent it). */
export function sayEnvironmentFailure(gate: string, failure: EnvironmentFailure, coder: string | null): string {
  return `The gate ${gate} failed because of its environment (${ENVIRONMENT_WORDS[failure.kind]}), not because of the code: "${failure.line}". ${failure.fix} Nothing was sent to ${coder ?? "an agent"} as a test failure; the thread is saved and resumes at this gate.`;
}

/** The warning for an optional gate the environment broke at the baseline: reported, the run goes on. */
export function sayOptionalEnvironment(gate: string, failure: EnvironmentFailure): string {
  return `The optional gate ${gate} failed because of its environment at the baseline, not because of the code: "${failure.line}". It does not stop the run: it is judged against this baseline, so only a change that makes it worse blocks. ${failure.fix}`;
}
