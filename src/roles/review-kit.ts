import { stringify } from "yaml";
import type { ReviewKit, RoleRecord } from "./types.js";
import { parseYamlEdit } from "./yaml-edit.js";

/** What a human review step lends a role's `review` (types.ts, ReviewKit): YAML, and edits read against its own handoff. */
export function reviewKit(role: RoleRecord): ReviewKit {
  return { yaml: (value) => stringify(value), edit: (content) => parseYamlEdit(role, content) };
}

/** The artifact a reviewer of this role's node is shown, in the format an edit must come back in. */
export function reviewArtifact(role: RoleRecord, state: Parameters<RoleRecord["review"]["artifact"]>[0], node: string): string {
  return role.review.artifact(state, node, reviewKit(role));
}

/** The state update an edited artifact makes for this role's node, or why it cannot be used. */
export function applyReviewEdit(role: RoleRecord, content: string, node: string): ReturnType<RoleRecord["review"]["apply"]> {
  return role.review.apply(content, node, reviewKit(role));
}
