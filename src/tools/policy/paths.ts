import path from "node:path";
import { WORD_BRACE, WORD_GLOB, WORD_TILDE, WORD_VAR, type SimpleCommand } from "../shell-parse.js";
import { refuse, type Nested } from "./nested.js";
import { baseName } from "./patterns.js";

/** Stand-ins for folders whose real path the policy may not know: the home folder, and an unknown folder. */
const HOME = "/\0home";
const ANY_CHILD = "…";

/**
 * The folders a command string may be in at each point: the project root at first, and every folder a `cd` or
 * `pushd` may have moved to since (a `cd` can fail and the shell go on, so earlier folders stay possible).
 * `null` in the set: a folder the policy cannot know (`cd "$X"`, `cd -`, `popd`).
 */
export interface Whereabouts {
  root: string;
  cwds: Set<string | null>;
}

/** The start: in the project root (the real one when known, a stand-in otherwise). */
export function startWhereabouts(root: string | undefined): Whereabouts {
  const r = root ? path.posix.normalize(root).replace(/\/+$/, "") || "/" : "/\0project";
  return { root: r, cwds: new Set([r]) };
}

// Resolves one argument word to the absolute paths it may name (one per possible cwd); null when unknowable.
function resolveWord(word: string, flags: number, cwds: Set<string | null>): (string | null)[] {
  if (flags & WORD_BRACE) return [null];
  let w = word;
  let base: string | null | undefined;
  if (flags & WORD_TILDE || w === "~" || w.startsWith("~/")) {
    if (!(w === "~" || w.startsWith("~/"))) return [null];
    base = HOME;
    w = w.slice(2);
  } else if (/^\$(HOME|\{HOME\})(\/|$)/.test(w)) {
    base = HOME;
    w = w.replace(/^\$(HOME|\{HOME\})\/?/, "");
  } else if (/^\$(PWD|\{PWD\})(\/|$)/.test(w)) {
    w = w.replace(/^\$(PWD|\{PWD\})\/?/, "");
  }
  if (flags & WORD_VAR && /\$/.test(w)) return [null];
  if (flags & WORD_GLOB) {
    // A glob component stands for some child; one that may match `..` (`.*`) stands for the parent.
    w = w
      .split("/")
      .map((part) => (/[*?[]/.test(part) ? (part.startsWith(".") ? ".." : ANY_CHILD) : part))
      .join("/");
  }
  if (base === undefined && w.startsWith("/")) return [normal(w)];
  const bases = base !== undefined ? [base] : [...cwds];
  return bases.map((b) => (b === null ? null : normal(path.posix.join(b, w))));
}

// `/a/./b/../c//` → `/a/c`: no trailing slash, so `./` is the folder itself.
function normal(p: string): string {
  return path.posix.normalize(p).replace(/(.)\/+$/, "$1");
}

// Why deleting `target` recursively is refused, or null when it is inside the project.
function deleteProblem(target: string | null, where: Whereabouts): string | null {
  if (target === null) return "cannot tell which folder it names";
  if (target === "/") return "would delete the root of the file system";
  if (target === HOME || target.startsWith(`${HOME}/`)) return target === HOME ? "would delete the home folder" : "is in the home folder, outside the project";
  if (target === where.root) return "would delete the project itself";
  if (target.startsWith(`${where.root}/`)) return null;
  return "is outside the project";
}

/** The folders `rm -r` or `find … -delete` would delete, checked after normalisation (`//`, `/etc/..`, `cd /`). */
export function deleteRuns(cmd: SimpleCommand, where: Whereabouts): Nested[] {
  const targets = deleteTargets(cmd);
  if (!targets) return [];
  for (const t of targets) {
    for (const resolved of resolveWord(t.word, t.flags, where.cwds)) {
      const problem = deleteProblem(resolved, where);
      if (problem) {
        return [
          refuse(
            "recursive delete outside the project",
            `\`${t.word}\` ${problem}; a recursive delete may only name folders inside the project (\`rm -rf dist\`)`,
          ),
        ];
      }
    }
  }
  return [];
}

// The words naming what a recursive delete removes, or null when argv is none.
function deleteTargets(cmd: SimpleCommand): { word: string; flags: number }[] | null {
  const { argv } = cmd;
  const flags = cmd.flags ?? [];
  const name = baseName(argv[0]);
  if (name === "rm") {
    let recursive = false;
    const targets: { word: string; flags: number }[] = [];
    let options = true;
    for (let i = 1; i < argv.length; i++) {
      const arg = argv[i];
      if (options && arg === "--") options = false;
      else if (options && arg.startsWith("--")) recursive ||= arg === "--recursive";
      else if (options && arg.startsWith("-") && arg !== "-") recursive ||= /[rR]/.test(arg);
      else targets.push({ word: arg, flags: flags[i] ?? 0 });
    }
    return recursive ? targets : null;
  }
  if (name === "find" && argv.includes("-delete")) {
    // find deletes what it finds below its search roots, not the roots themselves.
    return findRoots(argv).map((root) => ({ word: childOf(root), flags: flags[argv.indexOf(root)] ?? 0 }));
  }
  return null;
}

/** The search roots of `find` (after its `-H`/`-L`/`-P`/`-O`/`-D` options), where `-delete` and `-exec {}` act. */
export function findRoots(argv: string[]): string[] {
  let i = 1;
  while (i < argv.length && /^-([HLP]|O\d*|D)$/.test(argv[i])) i += argv[i] === "-D" ? 2 : 1;
  const roots: string[] = [];
  for (; i < argv.length && !/^[-(!]/.test(argv[i]); i++) roots.push(argv[i]);
  return roots.length ? roots : ["."];
}

/** `… | xargs rm -rf`: a recursive delete whose folders come from the input cannot be checked. */
export function deletesFromInput(argv: string[], wrapped: Nested[] | null): Nested[] {
  if (!wrapped || !/^(xargs|parallel)$/.test(baseName(argv[0]))) return [];
  const inner = wrapped.find((n) => n.kind === "argv");
  if (inner?.kind !== "argv" || !deleteTargets({ argv: inner.argv, piped: false })) return [];
  return [
    refuse(
      "recursive delete outside the project",
      `\`${baseName(argv[0])}\` would give a recursive delete folders read from its input, which cannot be checked; use \`find DIR … -exec rm -rf {} +\``,
    ),
  ];
}

/** Notes where a `cd`/`pushd`/`popd` may have moved the command string. */
export function noteCd(cmd: SimpleCommand, where: Whereabouts): void {
  const name = cmd.argv[0];
  // With CDPATH set, `cd x` may go anywhere.
  if ([...(cmd.assignments ?? []), ...cmd.argv].some((w) => w.startsWith("CDPATH="))) where.cwds.add(null);
  if (name !== "cd" && name !== "pushd" && name !== "popd" && name !== "chdir") return;
  if (name === "popd") {
    where.cwds.add(null);
    return;
  }
  let i = 1;
  while (i < cmd.argv.length && /^-[LPe@]+$/.test(cmd.argv[i])) i++;
  const target = cmd.argv[i];
  if (target === undefined) where.cwds.add(HOME);
  else if (target === "-") where.cwds.add(null);
  else for (const p of resolveWord(target, cmd.flags?.[i] ?? 0, new Set(where.cwds))) where.cwds.add(p);
}

/** A stand-in word for "a path below `root`", for the `{}` of `find ROOT -exec`. */
export function childOf(root: string): string {
  return `${root.replace(/\/+$/, "")}/${ANY_CHILD}`;
}
