import type { PipelineStateType } from "../state/pipeline.js";
import { inlineMarkdown as md } from "../text/markdown.js";
import { noteSections } from "./outputs.js";
import { type AnyRole, ROLE_CATALOG, rolesThat } from "./catalog.js";
import type { OutputSection } from "./types.js";

// Each built-in role's `display`, apart from the role modules (their zod schemas and YAML editing): `yolo show` needs
// only these, and stays clear of zod and yaml. Each role's definition uses the same function
// (tests/unit/roles/role-display.test.ts).

type Display = (v: PipelineStateType) => OutputSection[];

/** How each built-in role's output is shown, in the order `yolo show` and the report display it. */
export const DISPLAYS: Readonly<Record<AnyRole, Display>> = Object.freeze({
  // In `yolo show` only: the report opens with the requirement and lists the criteria under pm's stories.
  analyst: (v) => [
    { title: "Requirements", text: v.requirements ? [v.requirements.trim()] : [] },
    { title: "Acceptance criteria", text: v.acceptanceCriteria.map((c) => `- ${c}`) },
  ],
  pm: (v) =>
    v.stories.length
      ? [
          {
            title: "Stories",
            text: v.stories.map((st) => `- ${st.title}: as ${st.as_a}, I want ${st.i_want}, so that ${st.so_that}`),
            markdown: {
              heading: "### Stories",
              lines: v.stories.flatMap((s) => [
                `- **${md(s.title)}** — as ${md(s.as_a)}, I want ${md(s.i_want)}, so that ${md(s.so_that)}`,
                ...s.acceptance_criteria.map((c) => `  - ${md(c)}`),
              ]),
            },
          },
        ]
      : [],
  architect: (v) =>
    v.decisions.length
      ? [
          {
            title: "Decisions",
            text: v.decisions.map((d) => `- ${d.title}: ${d.decision} (${d.rationale})`),
            markdown: { heading: "### Decisions", lines: v.decisions.map((d) => `- **${md(d.title)}**: ${md(d.decision)} — _${md(d.rationale)}_`) },
          },
        ]
      : [],
  // Every node's note: a summary and findings, or a user role's declared values field by field.
  custom: (v) => noteSections(v.notes),
  // The files it reported (custom agents add theirs). The report shows git's diff of the whole thread instead.
  dev: (v) => [{ title: "Files changed", text: v.filesChanged.map((f) => `- ${f}`) }],
  // Shown after the gate results it judged (`judgesGates`); `yolo show` leaves out a verdict without findings.
  tea: (v) =>
    v.verdict
      ? [
          {
            title: `Verdict: ${v.verdict}`,
            text: v.findings.map((f) => `- ${f}`),
            markdown: { heading: `Verdict of the test architect: **${v.verdict}**`, lines: v.findings.map((f) => `- ${md(f)}`) },
          },
        ]
      : [],
});

/** The built-in roles that judge the gates (the catalog's `judgesGates`). */
export const JUDGING_ROLES: readonly AnyRole[] = rolesThat("judgesGates");

/**
 * What every role produced in a thread, as `yolo show` and the report display it: the roles' own sections, in the
 * registry's order; `judgement` holds those of roles that judge the gates, which read best after the gate results.
 */
export function outputSections(state: PipelineStateType): { work: OutputSection[]; judgement: OutputSection[] } {
  const roles = ROLE_CATALOG.map((r) => r.id);
  const of = (judges: boolean) => roles.filter((r) => JUDGING_ROLES.includes(r) === judges).flatMap((r) => DISPLAYS[r](state));
  return { work: of(false), judgement: of(true) };
}
