import { describe, expect, it } from "vitest";
import { DISPLAYS, JUDGING_ROLES } from "../../../src/roles/displays.js";
import { HISTORY_LINES } from "../../../src/roles/history-lines.js";
import { BUILT_IN_ROLES, roleOf } from "../../../src/roles/registry.js";
import { userRole } from "../../../src/roles/user-role.js";

// `yolo history` reads the lines from HISTORY_LINES (no zod, no YAML); the roles must use exactly the same functions.
describe("each built-in role's history line is the one HISTORY_LINES holds", () => {
  it.each(Object.keys(BUILT_IN_ROLES) as (keyof typeof BUILT_IN_ROLES)[])("%s", (id) => {
    expect(BUILT_IN_ROLES[id].history).toBe(HISTORY_LINES[id]);
  });

  it("an agent that judges gates is a tea, an unknown one custom, and a user role keeps custom's line", () => {
    expect(roleOf("qa", true).history).toBe(HISTORY_LINES.tea);
    expect(roleOf("writer", false).history).toBe(HISTORY_LINES.custom);
    expect(userRole("writer", { title: { type: "string", description: "a title" } } as never).history).toBe(HISTORY_LINES.custom);
  });
});

// `yolo show` reads the sections from DISPLAYS (no zod, no YAML); the roles must use exactly the same functions, and
// the roles that judge gates must be the ones DISPLAYS shows after the gate results.
describe("each built-in role's display is the one DISPLAYS holds", () => {
  it.each(Object.keys(BUILT_IN_ROLES) as (keyof typeof BUILT_IN_ROLES)[])("%s", (id) => {
    expect(BUILT_IN_ROLES[id].display).toBe(DISPLAYS[id]);
    expect(BUILT_IN_ROLES[id].judgesGates === true).toBe(JUDGING_ROLES.includes(id));
  });

  it("DISPLAYS lists the roles in the registry's order", () => {
    expect(Object.keys(DISPLAYS)).toEqual(Object.keys(BUILT_IN_ROLES));
  });
});
