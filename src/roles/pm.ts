import type { z as zod } from "zod";
import { inlineMarkdown as md } from "../text/markdown.js";
import { plural } from "../text/plural.js";
import { planProblems, type StoryInput } from "./story-plan.js";
import type { Zod } from "./types.js";
import { defineRole } from "./types.js";

/** `n stories, architecture needed`: pm's summary and history line. */
const storiesLine = (stories: number, needed: boolean) => `${plural(stories, "story", "stories")}, architecture ${needed ? "needed" : "not needed"}`;

/** Story ids and depends_on must make a plan the fan-out can run: unique, valid ids, known dependencies, no cycle. */
function checkPlan(stories: StoryInput[], ctx: zod.RefinementCtx): void {
  for (const p of planProblems(stories)) ctx.addIssue({ code: "custom", path: [p.index, p.field], message: p.message });
}

const fields = (z: Zod) => {
  const story = z.object({
    id: z.string().optional().describe('a short id for the story (lowercase letters, digits, - or _), e.g. "parse-args"; default s1, s2, … by position'),
    depends_on: z
      .array(z.string())
      .optional()
      .describe("ids of the stories that must be built before this one; [] when it is independent. Omitted everywhere: each story depends on all before it"),
    title: z.string().min(1),
    as_a: z.string().min(1),
    i_want: z.string().min(1),
    so_that: z.string().min(1),
    acceptance_criteria: z.array(z.string().min(1)).min(1),
  });
  return {
    stories: z.array(story).min(1).superRefine(checkPlan).describe("user stories with their acceptance criteria"),
    needs_architecture: z.boolean().describe("true when the change needs design decisions before coding"),
  };
};

/** pm: splits the requirements into user stories and says whether the change needs an architect. */
export const pm = defineRole({
  id: "pm",
  kind: "pm",
  pipeline: true,
  defaultAgent: "pm.md",
  fields,
  write: (h) => ({
    update: { stories: h.stories, needsArchitecture: h.needs_architecture === true },
    summary: storiesLine(h.stories.length, h.needs_architecture),
  }),
  brief: {
    reads: ["requirements", "notes"],
    writes: ["stories"],
    expected:
      "Call handoff with `stories` (id, depends_on, title, as_a, i_want, so_that, acceptance_criteria) and `needs_architecture`. `depends_on` lists the ids of the stories a story needs built first ([] when it is independent): independent stories may be built in parallel.",
  },
  review: {
    artifact: (state, _node, kit) => kit.yaml({ stories: state.stories, needs_architecture: state.needsArchitecture }),
    apply: (content, _node, kit) => {
      const edit = kit.edit(content);
      if ("error" in edit) return edit;
      const h = edit.handoff;
      return { update: { stories: h.stories, needsArchitecture: h.needs_architecture === true } };
    },
  },
  history: (v) => storiesLine(v.stories.length, v.needsArchitecture),
  display: (v) =>
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
});
