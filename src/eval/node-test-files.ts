import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { GateConfig } from "../config/schema.js";
import { shellWord } from "../gates/structured/script.js";

/**
 * `node --test <paths>` as the history build narrows it: the paths of a gate whose command (or `npm test` script) is
 * exactly that, the files Node runs from them, and the same gate on a few of those files. Other runners are not
 * narrowed (their configs load setup files no import names): the whole suite runs.
 */

const NODE_TEST = /^node\s+--test((?:\s+[\w./@-]+)+)\s*$/;
const NPM_TEST = /^\s*npm\s+(?:test|t|run\s+test)\s*$/;

/** The paths a required gate's `node --test` is given, or null when the gate is not exactly that. */
export function nodeTestPaths(gate: GateConfig, dir: string): string[] | null {
  let line = gate.command.trim();
  if (NPM_TEST.test(line)) {
    const script = packageJson(dir)?.scripts?.test;
    if (typeof script !== "string") return null;
    line = script.trim();
  }
  const m = NODE_TEST.exec(line);
  return m ? m[1].trim().split(/\s+/).map(normalise) : null;
}

/** The project's package name (an import of it resolves into the project), or null. */
export function ownPackageName(dir: string): string | null {
  const name = packageJson(dir)?.name;
  return typeof name === "string" ? name : null;
}

/**
 * Whether `node --test <paths>` runs `file`: given by name, or below a given folder and either inside a folder
 * named `test` (every .js/.cjs/.mjs there) or named as Node's test files are (`test`, `test-*`, `*.test`, `*-test`,
 * `*_test`), never inside `node_modules` (Node's documented search).
 */
export function nodeRunsFile(paths: string[], file: string): boolean {
  if (paths.includes(file)) return true;
  if (!/\.[cm]?js$/.test(file)) return false;
  const inside = paths.some((p) => p === "." || file.startsWith(`${p}/`));
  const parts = file.split("/");
  if (!inside || parts.includes("node_modules")) return false;
  const stem = (parts.at(-1) as string).replace(/\.[cm]?js$/, "");
  return parts.slice(0, -1).includes("test") || /^test$|^test-.+|.+[.\-_]test$/.test(stem);
}

/** The gate narrowed to `files` (each one a file it runs). */
export function narrowedNodeTest(gate: GateConfig, files: string[]): GateConfig {
  return { ...gate, command: `node --test ${files.map(shellWord).join(" ")}` };
}

function normalise(path: string): string {
  const p = path.replace(/^\.\//, "").replace(/\/+$/, "");
  return p === "" ? "." : p;
}

function packageJson(dir: string): { name?: unknown; scripts?: Record<string, unknown> } | null {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  } catch {
    return null;
  }
}
