/**
 * pm's stories as a plan: each story's id and the ids it depends on. Pure, shared by the handoff schema (which
 * rejects a bad plan as an error the model can fix) and the fan-out (which reads the plan of a valid handoff).
 */

/** What a story id may look like: it becomes a branch (`yolo/<thread>/<id>`) and a folder name, so no `/`, `..` or shell characters. */
export const STORY_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export interface PlannedStory {
  id: string;
  title: string;
  dependsOn: string[];
}

export interface StoryInput {
  id?: string;
  depends_on?: string[];
  title: string;
}

/**
 * The plan of pm's stories. A story without `id` is `s<N>` by position (1-based). A handoff without any
 * `depends_on` (old recordings, pm not asked) makes each story depend on every story before it: one after
 * another, exactly the one-dev behaviour from before stories ran in parallel.
 */
export function storyPlan(stories: readonly StoryInput[]): PlannedStory[] {
  const ids = stories.map((s, i) => s.id ?? `s${i + 1}`);
  const anyDeps = stories.some((s) => s.depends_on !== undefined);
  return stories.map((s, i) => ({ id: ids[i], title: s.title, dependsOn: anyDeps ? [...new Set(s.depends_on ?? [])] : ids.slice(0, i) }));
}

/** Every problem of a plan, each naming the story (by its index in `stories`) and what to change; empty when it is sound. */
export function planProblems(stories: readonly StoryInput[]): { index: number; field: "id" | "depends_on"; message: string }[] {
  const problems: { index: number; field: "id" | "depends_on"; message: string }[] = [];
  const plan = storyPlan(stories);
  const seen = new Map<string, number>();
  plan.forEach((s, i) => {
    if (stories[i].id !== undefined && !STORY_ID.test(s.id)) {
      problems.push({
        index: i,
        field: "id",
        message: `"${s.id}" is not a valid story id: use 1 to 40 lowercase letters, digits, "-" or "_", starting with a letter or digit (it becomes a git branch and a folder name)`,
      });
    }
    const first = seen.get(s.id);
    if (first !== undefined)
      problems.push({ index: i, field: "id", message: `duplicate story id "${s.id}" (also story ${first + 1}): give every story its own id` });
    else seen.set(s.id, i);
  });
  // Dependencies are only meaningful once every id is unique and valid.
  if (problems.length) return problems;
  plan.forEach((s, i) => {
    for (const dep of s.dependsOn) {
      if (dep === s.id) problems.push({ index: i, field: "depends_on", message: `story "${s.id}" depends on itself: remove it from its own depends_on` });
      else if (!seen.has(dep))
        problems.push({
          index: i,
          field: "depends_on",
          message: `story "${s.id}" depends on "${dep}", which is not the id of any story; known ids: ${[...seen.keys()].join(", ")}`,
        });
    }
  });
  if (problems.length) return problems;
  const cycle = findCycle(plan);
  if (cycle)
    problems.push({
      index: plan.findIndex((s) => s.id === cycle[0]),
      field: "depends_on",
      message: `depends_on has a cycle: ${cycle.join(" → ")}; a story can only depend on stories that can be built before it`,
    });
  return problems;
}

/** A dependency cycle as ids (first repeated at the end), or null. */
function findCycle(plan: readonly PlannedStory[]): string[] | null {
  const deps = new Map(plan.map((s) => [s.id, s.dependsOn]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "open") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "open");
    path.push(id);
    for (const dep of deps.get(id) ?? []) {
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const s of plan) {
    const found = visit(s.id);
    if (found) return found;
  }
  return null;
}
