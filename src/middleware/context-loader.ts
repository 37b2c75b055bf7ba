import { relative, sep } from "node:path";
import { DEFAULT_INSTRUCTION_FILES } from "../prompt/instructions.js";
import { projectSummary } from "../prompt/project-summary.js";
import type { MiddlewareState } from "./types.js";

/**
 * Step 1: the project context. Reads a bounded summary of the repository (tree, manifest); the earlier agents'
 * artifacts are already in the run state, and the node brief picks the ones this role needs. Missing pieces give null.
 * The only step that does I/O; `read` is injectable for tests.
 */
export function contextLoader(
  state: MiddlewareState,
  read: (root: string, instructions: { names: readonly string[]; startDir?: string }) => string | null = projectSummary,
): MiddlewareState {
  if (state.projectSummary !== undefined) return state;
  let summary: string | null;
  try {
    // Instruction files from the repository root down to the folder yolo was started in (src/prompt/instructions.ts).
    const names = state.settings.instructionFiles ?? DEFAULT_INSTRUCTION_FILES;
    summary = read(state.root, state.startDir ? { names, startDir: state.startDir } : { names });
  } catch {
    summary = null;
  }
  const start = startFolderLine(state.root, state.startDir);
  if (start) summary = summary ? `${start}\n\n${summary}` : start;
  return { ...state, projectSummary: summary };
}

/** A run started in a subfolder of the repository says which: "this file" or "here" in a request most likely means it. */
export function startFolderLine(root: string, startDir: string | undefined): string | null {
  if (!startDir) return null;
  const rel = relative(root, startDir);
  if (!rel || rel.startsWith("..")) return null;
  const folder = `${rel.split(sep).join("/")}/`;
  return `The user started yolo in the folder ${folder} of the project (paths stay relative to the project root): a request that names files or says "here" most likely means that folder.`;
}
