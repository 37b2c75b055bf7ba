import { describe, expect, it } from "vitest";
import { roleHandoffJsonSchema, roleHandoffSchema } from "../../../src/roles/handoff-schema.js";
import { asRole } from "../../../src/roles/registry.js";
import type { ROLES } from "../../../src/roles/catalog.js";
import type { AnyRole } from "../../../src/roles/types.js";

const handoffSchema = (role: AnyRole) => roleHandoffSchema(asRole(role));
const handoffJsonSchema = (role: AnyRole) => roleHandoffJsonSchema(asRole(role));

describe("handoff schemas (public API)", () => {
  it("offer each role its documented argument names plus escalation", () => {
    const names = (role: (typeof ROLES)[number]) => Object.keys((handoffJsonSchema(role) as { properties: object }).properties).sort();
    expect(names("analyst")).toEqual(["acceptance_criteria", "escalate_to_human", "question", "requirements"]);
    expect(names("pm")).toEqual(["escalate_to_human", "needs_architecture", "question", "stories"]);
    expect(names("architect")).toEqual(["decisions", "escalate_to_human", "question"]);
    expect(names("dev")).toEqual(["escalate_to_human", "files_changed", "question", "summary", "unrelated_failures"]);
    expect(names("tea")).toEqual(["escalate_to_human", "findings", "question", "verdict"]);
  });

  it("accept a complete handoff", () => {
    expect(handoffSchema("tea").safeParse({ verdict: "PASS", findings: [] }).success).toBe(true);
    expect(
      handoffSchema("pm").safeParse({
        stories: [{ title: "t", as_a: "a", i_want: "b", so_that: "c", acceptance_criteria: ["d"] }],
        needs_architecture: false,
      }).success,
    ).toBe(true);
  });

  it("reject missing and wrong-typed fields with their paths", () => {
    const dev = handoffSchema("dev").safeParse({ summary: 3 });
    expect(dev.success).toBe(false);
    expect(dev.error!.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["summary", "files_changed"]));
    const tea = handoffSchema("tea").safeParse({ verdict: "OK", findings: [] });
    expect(tea.error!.issues[0].path).toEqual(["verdict"]);
    const pm = handoffSchema("pm").safeParse({ stories: [{ title: "t" }], needs_architecture: true });
    expect(pm.error!.issues.some((i) => i.path.join(".") === "stories.0.as_a")).toBe(true);
  });

  it("let an escalating agent skip its outputs, but not its question", () => {
    expect(handoffSchema("analyst").safeParse({ escalate_to_human: true, question: "Floats?" }).success).toBe(true);
    const noQuestion = handoffSchema("analyst").safeParse({ escalate_to_human: true });
    expect(noQuestion.error!.issues[0]).toMatchObject({ path: ["question"] });
  });
});
