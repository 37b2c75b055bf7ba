import type { PipelineStateType } from "../engine/state.js";
import { judgementNotes } from "../gates/judgement-words.js";
import type { AnyRole } from "../tools/handoff.js";
import { fence } from "./fence.js";

type BriefState = Pick<
  PipelineStateType,
  | "requirement"
  | "requirements"
  | "acceptanceCriteria"
  | "stories"
  | "decisions"
  | "devSummary"
  | "filesChanged"
  | "lastGates"
  | "gateBlocked"
  | "fixAttempts"
  | "findings"
  | "verdict"
  | "answers"
  | "notes"
>;

/** What each role must deliver in its handoff, in words (the schema enforces it). */
const EXPECTED: Record<AnyRole, string> = {
  analyst: "Call handoff with `requirements` (Markdown) and `acceptance_criteria` (a list of testable statements).",
  pm: "Call handoff with `stories` (id, depends_on, title, as_a, i_want, so_that, acceptance_criteria) and `needs_architecture`. `depends_on` lists the ids of the stories a story needs built first ([] when it is independent): independent stories may be built in parallel.",
  architect: "Call handoff with `decisions` (title, decision, rationale).",
  dev: "Implement the change with tests, run the project's tests yourself, then call handoff with `summary` and `files_changed`.",
  tea: "Judge the change against the acceptance criteria and the gate results, then call handoff with `verdict` (PASS, CONCERNS or FAIL) and `findings`.",
  custom: "Do your part as your instructions describe, then call handoff with `summary` and, when you have any, `findings`.",
};

/** The node brief: the inputs this role needs from earlier agents, and what it must hand off. */
export function nodeBrief(role: AnyRole, state: BriefState & { task?: string }, maxFixAttempts: number, node: string = role, flags: string[] = []): string {
  const parts: string[] = [];
  if (role !== "analyst" && state.requirements) parts.push(`## Requirements (from analyst)\n${state.requirements}`);
  if (role !== "analyst" && state.acceptanceCriteria.length) parts.push(`## Acceptance criteria\n${list(state.acceptanceCriteria)}`);
  const later = role === "architect" || role === "dev" || role === "tea" || role === "custom";
  if (later && state.stories.length) {
    parts.push(
      `## Stories (from pm)\n${state.stories
        .map((s) => `- **${s.title}**: as ${s.as_a}, I want ${s.i_want}, so that ${s.so_that}\n${s.acceptance_criteria.map((c) => `  - ${c}`).join("\n")}`)
        .join("\n")}`,
    );
  }
  if ((role === "dev" || role === "tea" || role === "custom") && state.decisions.length) {
    parts.push(`## Architecture decisions\n${state.decisions.map((d) => `- **${d.title}**: ${d.decision} (${d.rationale})`).join("\n")}`);
  }
  const others = Object.entries(state.notes).filter(([from]) => from !== node);
  if (role !== "analyst" && others.length) {
    parts.push(
      `## Notes from other agents\n${others
        .map(([from, n]) => `- **${from}**${n.verdict ? ` (${n.verdict})` : ""}: ${n.summary}${n.findings.map((f) => `\n  - ${f}`).join("")}`)
        .join("\n")}`,
    );
  }
  if ((role === "dev" || role === "custom") && state.gateBlocked) {
    parts.push(
      `## Fix attempt ${state.fixAttempts} of ${maxFixAttempts}\nThe quality gate blocked the previous change. Fix the cause; do not weaken or delete tests to make them pass.` +
        (state.verdict ? `\nTest architect's verdict: ${state.verdict}` : "") +
        (state.findings.length ? `\nFindings:\n${list(state.findings)}` : "") +
        gateSection(state),
    );
  }
  if (role === "custom" && state.devSummary) parts.push(`## The change (from dev)\n${state.devSummary}`);
  if (role === "tea") {
    if (state.devSummary) parts.push(`## The change (from dev)\n${state.devSummary}`);
    if (state.filesChanged.length) parts.push(`## Files changed\n${list(state.filesChanged)}`);
    parts.push(state.lastGates.length ? `## Gate results (run by yolo just now)${gateSection(state)}` : "## Gate results\nNo gate commands are configured for this project; judge from the code and tests you can read.");
  }
  // A part of the work yolo gives this run alone (one story of several built in parallel, a merge conflict).
  if (state.task) parts.push(state.task);
  const decide = flags.length ? ` Also decide ${flags.map((f) => `\`${f}\``).join(", ")} (true or false): the workflow branches on ${flags.length === 1 ? "it" : "them"}.` : "";
  parts.push(`## Your output\n${EXPECTED[role]}${decide}`);
  return parts.join("\n\n");
}

/** Earlier human answers to this role's questions, fenced as data. */
export function answersFor(node: string, state: Pick<BriefState, "answers">): string | null {
  const mine = state.answers.filter((a) => a.node === node);
  if (!mine.length) return null;
  return `## Answers from the human\n${mine.map((a) => `Q: ${a.question}\n${fence("human answer", a.answer)}`).join("\n\n")}`;
}

function gateSection(state: Pick<BriefState, "lastGates">): string {
  return state.lastGates
    .map((g) => {
      const status = g.passed ? "PASSED" : g.timedOut ? "TIMED OUT" : `FAILED (exit ${g.exitCode})`;
      const counts = g.passedCount !== null || g.failedCount !== null ? ` — ${g.passedCount ?? "?"} passed, ${g.failedCount ?? "?"} failed` : "";
      const failures = g.failures.length ? `\nFailing: ${g.failures.join("; ")}` : "";
      // yolo's comparison with the baseline: what blocks (a refused gate change must be reverted) and what does not.
      const judged = judgementNotes(g, 10).map((n) => `\n${n}`).join("");
      const tail = g.passed ? "" : `\n${fence(`output of \`${g.command}\` (tail)`, g.tail)}`;
      return `\n### ${g.name}${g.required ? "" : " (optional)"}: \`${g.command}\` ${status}${counts}${failures}${judged}${tail}`;
    })
    .join("");
}

function list(items: string[]): string {
  return items.map((i) => `- ${i}`).join("\n");
}
