import { describe, expect, it } from "vitest";
import { roleHandoffSchema } from "../../../../src/roles/handoff-schema.js";
import { asRole } from "../../../../src/roles/registry.js";
import { storyPlan } from "../../../../src/roles/story-plan.js";

const handoffSchema = (role: "pm") => roleHandoffSchema(asRole(role));

const story = (extra: Record<string, unknown> = {}) => ({ title: "T", as_a: "dev", i_want: "x", so_that: "y", acceptance_criteria: ["z"], ...extra });
const pm = (stories: unknown[]) => handoffSchema("pm").safeParse({ stories, needs_architecture: false });
const messages = (r: ReturnType<typeof pm>) => (r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));

describe("pm's story plan: ids and depends_on", () => {
  it("an old handoff (no id, no depends_on) runs one story after another, as one dev did", () => {
    expect(storyPlan([story(), story(), story()] as never)).toEqual([
      { id: "s1", title: "T", dependsOn: [] },
      { id: "s2", title: "T", dependsOn: ["s1"] },
      { id: "s3", title: "T", dependsOn: ["s1", "s2"] },
    ]);
  });

  it("with depends_on anywhere, a story without it is independent", () => {
    const plan = storyPlan([story({ id: "a" }), story({ id: "b", depends_on: ["a"] }), story({ id: "c" })] as never);
    expect(plan.map((s) => [s.id, s.dependsOn])).toEqual([
      ["a", []],
      ["b", ["a"]],
      ["c", []],
    ]);
    expect(pm([story({ id: "a" }), story({ id: "b", depends_on: ["a"] }), story({ id: "c" })]).success).toBe(true);
  });

  it("rejects duplicate ids, unknown and self dependencies, as errors the model can fix", () => {
    expect(messages(pm([story({ id: "a" }), story({ id: "a" })]))).toEqual([
      'stories.1.id: duplicate story id "a" (also story 1): give every story its own id',
    ]);
    expect(messages(pm([story({ id: "a", depends_on: ["a"] })]))[0]).toContain("depends on itself");
    expect(messages(pm([story({ id: "a", depends_on: ["zz"] })]))[0]).toMatch(
      /^stories\.0\.depends_on: .*"zz", which is not the id of any story; known ids: a$/,
    );
  });

  it("rejects a cycle, naming it", () => {
    const r = pm([story({ id: "a", depends_on: ["c"] }), story({ id: "b", depends_on: ["a"] }), story({ id: "c", depends_on: ["b"] })]);
    expect(messages(r)).toEqual([
      "stories.0.depends_on: depends_on has a cycle: a → c → b → a; a story can only depend on stories that can be built before it",
    ]);
  });

  it("rejects ids that would escape as a branch or folder name: /, .., shell characters, upper case, too long", () => {
    for (const id of ["a/b", "..", "../x", "a;rm -rf ~", "$(id)", "a b", "-x", "A", "x".repeat(41), "", ".hidden", "a`b`"]) {
      expect(messages(pm([story({ id })]))[0], id).toMatch(/is not a valid story id/);
    }
    expect(pm([story({ id: "parse-args_2" })]).success).toBe(true);
  });

  it("offers id and depends_on to the model as optional fields", () => {
    const schema = handoffSchema("pm");
    expect(schema.safeParse({ stories: [story()], needs_architecture: true }).success).toBe(true);
  });
});
