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
  read: (root: string, instructions: { names: readonly string[] }) => string | null = projectSummary,
): MiddlewareState {
  if (state.projectSummary !== undefined) return state;
  let summary: string | null;
  try {
    summary = read(state.root, { names: state.settings.instructionFiles ?? DEFAULT_INSTRUCTION_FILES });
  } catch {
    summary = null;
  }
  return { ...state, projectSummary: summary };
}
