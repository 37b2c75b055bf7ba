import type { FailureRuling, StateView } from "../state/types.js";
import { judgementNotes } from "../events/judgement-words.js";
import { DEFAULT_JUDGE } from "../roles/catalog.js";
import { asRole, BUILT_IN_ROLES } from "../roles/registry.js";
import { BRIEF_SECTIONS, type AnyRole, type BriefSection, type RoleRecord } from "../roles/types.js";
import { fence } from "../text/fence.js";

type BriefState = Pick<
  StateView,
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
  | "verdictBy"
  | "answers"
  | "notes"
> & { failureRulings?: FailureRuling[] };

type Section = (state: BriefState, ctx: { node: string; maxFixAttempts: number }) => string | null;

/** How each piece of earlier work reads in a brief; a role's `brief.reads` picks them (src/roles/). */
const SECTIONS: Record<BriefSection, Section> = {
  requirements: (state) =>
    [
      state.requirements ? `## Requirements${from("requirements")}\n${state.requirements}` : null,
      state.acceptanceCriteria.length ? `## Acceptance criteria\n${list(state.acceptanceCriteria)}` : null,
    ]
      .filter(Boolean)
      .join("\n\n") || null,
  stories: (state) =>
    state.stories.length
      ? `## Stories${from("stories")}\n${state.stories
          .map((s) => `- **${s.title}**: as ${s.as_a}, I want ${s.i_want}, so that ${s.so_that}\n${s.acceptance_criteria.map((c) => `  - ${c}`).join("\n")}`)
          .join("\n")}`
      : null,
  decisions: (state) =>
    state.decisions.length ? `## Architecture decisions\n${state.decisions.map((d) => `- **${d.title}**: ${d.decision} (${d.rationale})`).join("\n")}` : null,
  notes: (state, { node }) => {
    const others = Object.entries(state.notes).filter(([from]) => from !== node);
    if (!others.length) return null;
    return `## Notes from other agents\n${others
      .map(([from, n]) => `- **${from}**${n.verdict ? ` (${n.verdict})` : ""}: ${n.summary}${n.findings.map((f) => `\n  - ${f}`).join("")}`)
      .join("\n")}`;
  },
  "fix-attempt": (state, { maxFixAttempts }) =>
    state.gateBlocked
      ? `## Fix attempt ${state.fixAttempts} of ${maxFixAttempts}\nThe quality gate blocked the previous change. Fix the cause; do not weaken or delete tests to make them pass.` +
        (state.verdict ? `\n${judgeWords(state.verdictBy)}'s verdict: ${state.verdict}` : "") +
        (state.findings.length ? `\nFindings:\n${list(state.findings)}` : "") +
        gateSection(state) +
        rulingsSection(state)
      : null,
  change: (state) => (state.devSummary ? `## The change${from("change")}\n${state.devSummary}` : null),
  "files-changed": (state) => (state.filesChanged.length ? `## Files changed\n${list(state.filesChanged)}` : null),
  "gate-results": (state) =>
    state.lastGates.length
      ? `## Gate results (run by yolo just now)${gateSection(state)}`
      : "## Gate results\nNo gate commands are configured for this project; judge from the code and tests you can read.",
};

/** ` (from analyst)`: the built-in role whose handoff provides a piece of earlier work (its `brief.writes`), or nothing. */
function from(section: BriefSection): string {
  const author = Object.values(BUILT_IN_ROLES).find((r) => r.brief.writes?.includes(section));
  return author ? ` (from ${author.id})` : "";
}

/** Who gave the verdict, in words: its node, or the judging role's title when that is all a thread knows. */
function judgeWords(by: string | null | undefined): string {
  const judging = BUILT_IN_ROLES[DEFAULT_JUDGE as AnyRole];
  return by && by !== judging.id ? by : (judging.title ?? judging.id);
}

/** The node brief: the inputs this role needs from earlier agents (its `brief.reads`), and what it must hand off. */
export function nodeBrief(
  roleRef: AnyRole | RoleRecord,
  state: BriefState & { task?: string },
  maxFixAttempts: number,
  node?: string,
  flags: string[] = [],
): string {
  const role = asRole(roleRef);
  const ctx = { node: node ?? role.id, maxFixAttempts };
  const reads = new Set(role.brief.reads);
  const parts = BRIEF_SECTIONS.filter((s) => reads.has(s))
    .map((s) => SECTIONS[s](state, ctx))
    .filter((p): p is string => p !== null);
  // A part of the work yolo gives this run alone (one story of several built in parallel, a merge conflict).
  if (state.task) parts.push(state.task);
  const decide = flags.length
    ? ` Also decide ${flags.map((f) => `\`${f}\``).join(", ")} (true or false): the workflow branches on ${flags.length === 1 ? "it" : "them"}.`
    : "";
  parts.push(`## Your output\n${role.brief.expected}${decide}`);
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
      const judged = [...causeLines(g), ...judgementNotes({ ...g, regressions: [], preExisting: [] }, 10)].map((n) => `\n${n}`).join("");
      const tail = g.passed ? "" : `\n${fence(`output of \`${g.command}\` (tail)`, g.tail)}`;
      return `\n### ${g.name}${g.required || g.blocking ? "" : " (optional)"}: \`${g.command}\` ${status}${counts}${failures}${judged}${targetSection(g)}${tail}`;
    })
    .join("");
}

/**
 * What dev must tell apart: the regressions its change caused, and the tests already failing before the run (the
 * task's targets), each under its own heading; their output follows in the gate's tail.
 */
function causeLines(g: BriefState["lastGates"][number]): string[] {
  const out: string[] = [];
  if (g.regressions?.length) out.push(`Regressions you caused (passed before the run, failing or not run now):\n${list(g.regressions)}`);
  if (g.preExisting?.length) {
    const head = g.preExistingAllowed
      ? 'Already failing before the run (baseline: "report": they do not block):'
      : "Already failing before the run (the task's targets: make them pass; their output is below):";
    out.push(`${head}\n${list(g.preExisting)}`);
  }
  return out;
}

/**
 * Each still-failing target's own failure text from this run and from the baseline, fenced as data (the gate's
 * output is the tested code's, written by the model); the targets past the bound are in the tail only.
 */
function targetSection(g: BriefState["lastGates"][number]): string {
  const targets = g.targetOutput ?? [];
  if (!targets.length) return "";
  const parts = targets.map((t) => {
    const now =
      t.output === null ? "This run's output could not be cut for this test: see the tail below." : fence(`failure of \`${t.id}\` in this run`, t.output);
    const then = t.baseline === undefined ? "" : `\n${fence(`failure of \`${t.id}\` at the baseline, before the run`, t.baseline)}`;
    return `\n#### Target still failing: ${t.id}\n${now}${then}`;
  });
  const left = (g.preExisting?.length ?? 0) - targets.length;
  const more = left > 0 ? `\n(${left} more target${left === 1 ? "" : "s"} without their own output here: see the tail below.)` : "";
  return `${parts.join("")}${more}`;
}

/** A human's rulings on dev's claims that failing tests are unrelated: refused ones stay targets, with the reason. */
function rulingsSection(state: Pick<BriefState, "failureRulings">): string {
  const rulings = state.failureRulings ?? [];
  if (!rulings.length) return "";
  const lines = rulings.map((r) =>
    r.accepted
      ? `- ${r.id} (gate ${r.gate}): accepted by a human as a known failure`
      : `- ${r.id} (gate ${r.gate}): a human refused your claim that it is unrelated${r.reason ? `: ${r.reason}` : ""}. It is part of the task.`,
  );
  return `\n\n### Human rulings on tests you said are unrelated\n${lines.join("\n")}`;
}

function list(items: string[]): string {
  return items.map((i) => `- ${i}`).join("\n");
}
