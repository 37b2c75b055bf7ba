import type { GateResult } from "../events/schema.js";
import type { PipelineStateType } from "../state/pipeline.js";
import { plural } from "../text/plural.js";
import { type AnyRole, isPipelineRole, rolesThat } from "./catalog.js";

// Each built-in role's `history` line, apart from the role modules (their zod schemas and YAML editing): `yolo history`
// needs only these. Each role's definition uses the same function (tests/unit/roles/history-lines.test.ts).

export const criteriaLine = (n: number) => plural(n, "acceptance criterion", "acceptance criteria");

export const storiesLine = (stories: number, needed: boolean) => `${plural(stories, "story", "stories")}, architecture ${needed ? "needed" : "not needed"}`;

export const gateLine = (results: Pick<GateResult, "passed">[]) =>
  results.length ? `gates ${results.filter((g) => g.passed).length}/${results.length} passed` : "no gates";

/** One line saying what a built-in role's node checkpoint holds, by role. */
export const HISTORY_LINES: Readonly<Record<AnyRole, (v: PipelineStateType, node: string) => string>> = Object.freeze({
  analyst: (v) => criteriaLine(v.acceptanceCriteria.length),
  pm: (v) => storiesLine(v.stories.length, v.needsArchitecture),
  architect: (v) => plural(v.decisions.length, "decision"),
  dev: (v) => `${plural(v.filesChanged.length, "file")} changed: ${(v.devSummary ?? "").split("\n")[0]}`,
  tea: (v) => `verdict ${v.verdict}, ${gateLine(v.lastGates)}${v.lastGates.length && v.gateBlocked ? " — blocked" : ""}`,
  custom: (v, node) => v.notes[node]?.summary.split("\n")[0] ?? "",
});

/** The built-in role an agent id plays: an agent that judges gates plays the judging role; unknown agents are custom. */
export function builtInRoleFor(agentId: string, judgesGates: boolean): AnyRole {
  if (judgesGates) return rolesThat("judgesGates")[0];
  return isPipelineRole(agentId) ? agentId : "custom";
}
