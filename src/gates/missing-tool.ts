import { accessSync, constants } from "node:fs";
import path from "node:path";
import { defaultGates } from "./detect.js";
import { readJsonObject } from "./detect/files.js";
import type { GateConfig } from "./schema.js";

/** A detected gate left out because the program it starts is not installed, and the words that say so. */
export interface LeftOutGate {
  gate: GateConfig;
  /** The program that is missing (`ruff`, `eslint`). */
  program: string;
  /** Where yolo looked, in a few words ("on PATH", "in node_modules/.bin or on PATH"). */
  where: string;
  /** The plain command run in its place (`pytest -rA` for a missing tox or uv), when its program is installed. */
  replacedBy?: string;
}

const RUN_SCRIPT = /^(npm|pnpm|yarn|bun)\s+(?:run\s+)?([\w:.-]+)\b/;
const UV_RUN = /^uv\s+run\s+(?:--\S+\s+)*([\w.-]+)/;
// A command yolo cannot read a program from (a loop, a subshell, a variable): assumed installed.
const OPAQUE = /^(?:for|if|while|case|status=|\(|\{|\$|!)/;

/**
 * The detected gates whose program is not installed, and the rest. A gate the user configured (`gates`, `--test-cmd`)
 * is never left out: yolo runs it and says plainly when it cannot start. `pathVar`: the PATH the gates get.
 */
export function splitMissingTools(gates: readonly GateConfig[], root: string, pathVar: string | undefined): { kept: GateConfig[]; leftOut: LeftOutGate[] } {
  const kept: GateConfig[] = [];
  const leftOut: LeftOutGate[] = [];
  for (const gate of gates) {
    const missing = missingProgram(gate.command, root, pathVar);
    if (!missing) {
      kept.push(gate);
      continue;
    }
    // tox or uv missing: the project's runner itself (pytest, ruff) may be installed, and judges as the user runs it.
    const plain = withoutWrapper(gate.command);
    if (plain && !missingProgram(plain, root, pathVar)) {
      kept.push({ ...gate, command: plain });
      leftOut.push({ gate, ...missing, replacedBy: plain });
    } else leftOut.push({ gate, ...missing });
  }
  return { kept, leftOut };
}

/** The command a detected gate runs without the wrapper detection put around it (tox, `uv run`), or null. */
function withoutWrapper(command: string): string | null {
  // Detection writes `tox` only for a project that uses pytest (src/gates/detect/python.ts).
  if (command === "tox") return "pytest -rA";
  return /^uv\s+run\s+(\S.*)$/.exec(command)?.[1] ?? null;
}

/**
 * The gates a run in `root` runs: the configured ones as they are (null: none configured), else the detected ones
 * whose program is installed, with those left out.
 */
export function gatesToRun(
  configured: readonly GateConfig[] | null | undefined,
  root: string,
  pathVar: string | undefined,
): { gates: GateConfig[]; leftOut: LeftOutGate[] } {
  if (configured) return { gates: [...configured], leftOut: [] };
  const { kept, leftOut } = splitMissingTools(defaultGates(root), root, pathVar);
  return { gates: kept, leftOut };
}

/** The program a gate's command starts that is not installed; null when it is, or when yolo cannot tell. */
export function missingProgram(command: string, root: string, pathVar: string | undefined): { program: string; where: string } | null {
  const text = command.trim().replace(/^cd\s+\S+\s+&&\s+/, "");
  if (OPAQUE.test(text)) return null;
  const first = text.split(/\s+/)[0] ?? "";
  if (!installed(first, root, pathVar)) return { program: first, where: "on PATH" };
  const uv = UV_RUN.exec(text);
  if (uv && !onPath(uv[1], pathVar) && !executable(path.join(root, ".venv", "bin", uv[1]))) return { program: uv[1], where: "in .venv/bin or on PATH" };
  const script = RUN_SCRIPT.exec(text);
  if (script) return missingScriptProgram(script[2] === "test" || script[2] === "t" ? "test" : script[2], root, pathVar);
  return null;
}

// A package script's first program (`eslint .` → eslint): npm finds it in node_modules/.bin, then on PATH.
function missingScriptProgram(name: string, root: string, pathVar: string | undefined): { program: string; where: string } | null {
  const scripts = readJsonObject(root, "package.json")?.scripts as Record<string, unknown> | undefined;
  const body = typeof scripts?.[name] === "string" ? (scripts[name] as string).trim() : "";
  const words = body.split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const program = words[0] === "npx" ? words.find((w, i) => i > 0 && !w.startsWith("-")) : words[0];
  if (!program || OPAQUE.test(program) || program.includes("/")) return null;
  if (executable(path.join(root, "node_modules", ".bin", program)) || onPath(program, pathVar) || SHELL_WORDS.has(program)) return null;
  return { program, where: "in node_modules/.bin or on PATH" };
}

/** Shell builtins a script may start with: never "missing". */
const SHELL_WORDS = new Set(["echo", "exit", "true", "false", "test", "[", "cd", "export", "set", "exec", "env", "node", "sh", "bash"]);

// A program word: a path (./gradlew) must exist and run; a bare name must be on PATH.
function installed(word: string, root: string, pathVar: string | undefined): boolean {
  if (!word || SHELL_WORDS.has(word)) return true;
  if (word.includes("/")) return executable(path.resolve(root, word));
  return onPath(word, pathVar);
}

function onPath(name: string, pathVar: string | undefined): boolean {
  return (pathVar ?? "").split(path.delimiter).some((dir) => dir !== "" && executable(path.join(dir, name)));
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The warning said at a run's start (and by `yolo doctor`) for a detected gate left out. */
export function leftOutWarning(left: LeftOutGate): string {
  if (left.replacedBy)
    return `The detected gate "${left.gate.name}" runs \`${left.replacedBy}\` instead of \`${left.gate.command}\`: ${left.program} is not installed (not found ${left.where}). ${leftOutFix(left)}`;
  return `The detected gate "${left.gate.name}" (${left.gate.command}) is left out of this run: ${left.program} is not installed (not found ${left.where}). ${leftOutFix(left)}`;
}

/** What to do about a detected gate left out. */
export function leftOutFix(left: LeftOutGate): string {
  return `Install ${left.program} to have it judged, or list the gates you want in yolo.config.ts (a configured gate always runs).`;
}
