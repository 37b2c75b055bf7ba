import { stringify } from "yaml";
import { z } from "zod";
import { plural } from "../text/plural.js";
import { defineRole } from "./types.js";
import { parseYamlEdit } from "./yaml-edit.js";

const story = z.object({
  title: z.string().min(1),
  as_a: z.string().min(1),
  i_want: z.string().min(1),
  so_that: z.string().min(1),
  acceptance_criteria: z.array(z.string().min(1)).min(1),
});

const fields = {
  stories: z.array(story).min(1).describe("user stories with their acceptance criteria"),
  needs_architecture: z.boolean().describe("true when the change needs design decisions before coding"),
};

const line = (stories: number, needed: boolean) => `${plural(stories, "story", "stories")}, architecture ${needed ? "needed" : "not needed"}`;

/** pm: splits the requirements into user stories and says whether the change needs an architect. */
export const pm = defineRole({
  id: "pm",
  kind: "pm",
  fields,
  write: (h) => ({
    update: { stories: h.stories, needsArchitecture: h.needs_architecture === true },
    summary: line(h.stories.length, h.needs_architecture),
  }),
  brief: {
    reads: ["requirements", "notes"],
    expected: "Call handoff with `stories` (title, as_a, i_want, so_that, acceptance_criteria) and `needs_architecture`.",
  },
  review: {
    artifact: (state) => stringify({ stories: state.stories, needs_architecture: state.needsArchitecture }),
    apply: (content) => {
      const edit = parseYamlEdit({ fields }, content);
      if ("error" in edit) return edit;
      const h = edit.handoff;
      return { update: { stories: h.stories, needsArchitecture: h.needs_architecture === true } };
    },
  },
  history: (v) => line(v.stories.length, v.needsArchitecture),
});
