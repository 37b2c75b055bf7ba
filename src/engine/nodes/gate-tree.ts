import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { GateDefinition } from "../../gates/definition.js";
import type { JudgedTree } from "../../state/types.js";
import { isTestSide } from "../../gates/test-side.js";
import { type CleanCopy, makeCleanCopy } from "../../git/clean-copy.js";
import { treeChanges, workTreeHash } from "../../git/work-tree-hash.js";

/**
 * yolo's own files inside the project, as globs for treeNow: a SQLite database given by `--db` (with its WAL, its
 * journal and its closing note beside it) and an artifacts folder other than `.yolo` (excluded already). Writing them
 * is yolo's work, never an agent's change to judge.
 */
export function ownFilesIn(config: { root: string; dbPath: string; stateDir: string }): string[] {
  const inside = (p: string) => {
    const rel = relative(config.root, p);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) && rel !== ".yolo" && !rel.startsWith(`.yolo${sep}`) ? rel.split(sep).join("/") : null;
  };
  const globEscape = (rel: string) => rel.replace(/[*?[\\]/g, "\\$&");
  const db = inside(config.dbPath);
  const state = inside(config.stateDir);
  return [...(db ? [`${globEscape(db)}*`] : []), ...(state ? [`${globEscape(state)}/**`] : [])];
}

/** Whether a project-relative path is one of yolo's own files there (see ownFilesIn), for the ignored files' walk. */
export function ownPathTest(config: { root: string; dbPath: string; stateDir: string }): (rel: string) => boolean {
  const inside = (p: string) => {
    const rel = relative(config.root, p);
    return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split(sep).join("/") : null;
  };
  const db = inside(config.dbPath);
  const state = inside(config.stateDir);
  return (rel) => (db !== null && rel.startsWith(db)) || (state !== null && (rel === state || rel.startsWith(`${state}/`)));
}

/**
 * The project's git tree now, with the ignored files an agent wrote (`ignored`, agent-ignored.ts); null outside git
 * (or when git cannot write it): then no tree is compared.
 */
export async function treeNow(root: string, own: readonly string[] = [], ignored: readonly string[] = []): Promise<string | null> {
  try {
    return await workTreeHash(root, own, ignored);
  } catch {
    return null;
  }
}

/** The project-relative files that differ between two trees; [] when either is unknown or git cannot say. */
export async function filesBetween(root: string, from: string | null, to: string | null): Promise<string[]> {
  if (!from || !to || from === to) return [];
  try {
    return await treeChanges(root, from, to);
  } catch {
    return [];
  }
}

/** The blocking finding of a gate run whose own commands changed the project's files. */
export function gateWroteFinding(files: string[]): string {
  const shown = files.length > 10 ? `${files.slice(0, 10).join(", ")} and ${files.length - 10} more` : files.join(", ");
  return `the gate's own commands changed ${shown}: a gate run must leave source and test files as it found them (it blocks until a gate run changes nothing)`;
}

/**
 * The copy of the project the baseline's tests run in this gate check (see makeCleanCopy): null when the baseline
 * recorded no tree, or the agent changed no test-side file. A test file a human approved as part of a gate change
 * keeps the agent's version (its content hash is the approved one).
 */
export async function cleanCopyFor(
  root: string,
  baseTree: string | null | undefined,
  nowTree: string | null,
  approved: GateDefinition | null,
  agentIgnored: readonly string[] = [],
): Promise<CleanCopy | null> {
  if (!baseTree || !nowTree || baseTree === nowTree) return null;
  const keep = (rel: string) => {
    const recorded = approved?.testFiles[rel]?.hash;
    return recorded !== undefined && recorded === contentHash(join(root, rel));
  };
  return makeCleanCopy({ root, baseTree, nowTree, testSide: (rel) => isTestSide(rel) && !keep(rel), agentIgnored });
}

// The hash resolveGateDefinition records for a test file's content; null when it cannot be read.
function contentHash(file: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(file, "utf8")).digest("hex").slice(0, 16);
  } catch {
    return null;
  }
}

/**
 * Where the run must go back to when an agent's step left the project different from the tree the latest passing
 * gate judged (tea writing after its own gate, a reviewer editing after a gate node, a command's late write): that
 * gate's node and the files that differ. Null when no gate judged a tree, the gate blocked (the run goes back to
 * work anyway), or nothing changed.
 */
export async function staleGate(
  root: string,
  judged: JudgedTree | null | undefined,
  blocked: boolean,
  own: readonly string[] = [],
  ignored: readonly string[] = [],
): Promise<{ node: string; files: string[] } | null> {
  if (!judged || blocked) return null;
  const now = await treeNow(root, own, ignored);
  if (!now || now === judged.tree) return null;
  return { node: judged.node, files: await filesBetween(root, judged.tree, now) };
}
