import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseDependencyTree } from "dpdm";
import { describe, expect, it } from "vitest";
import { loadAgents } from "../../../src/agents/loader.js";
import { ROLE_CATALOG, ROLES } from "../../../src/roles/catalog.js";
import { handoffFields } from "../../../src/roles/handoff-schema.js";
import { BUILT_IN_ROLES, roleOf } from "../../../src/roles/registry.js";
import { userRole } from "../../../src/roles/user-role.js";

const ROOT = join(import.meta.dirname, "../../..");

describe("a built-in role is one record, in its own file", () => {
  it.each(ROLE_CATALOG.map((r) => r.id))("%s: src/roles/<id>.ts exports the record the catalog and the registry hold", async (id) => {
    const module = (await import(`../../../src/roles/${id}.ts`)) as Record<string, unknown>;
    expect(module[id]).toBe(BUILT_IN_ROLES[id]);
    expect(BUILT_IN_ROLES[id].id).toBe(id);
  });

  it("the registry lists the catalog's records in its order", () => {
    expect(Object.values(BUILT_IN_ROLES)).toEqual([...ROLE_CATALOG]);
  });

  it("each pipeline role names its shipped agent file, and every shipped agent file is a pipeline role's", () => {
    const shipped = readdirSync(join(ROOT, "agents")).filter((f) => f.endsWith(".md"));
    expect(ROLES.map((id) => BUILT_IN_ROLES[id].defaultAgent).sort()).toEqual(shipped.sort());
    const { agents, errors } = loadAgents({ projectAgentsDir: null, cwd: ROOT });
    expect(errors).toEqual([]);
    for (const id of ROLES) expect(agents.get(BUILT_IN_ROLES[id].defaultAgent!.replace(/\.md$/, ""))?.id).toBe(id);
  });

  // `yolo show` and `yolo history` read the records' displays and history lines; they load neither zod nor YAML.
  it("loads without zod or YAML: the handoff schema and the review's YAML are handed in by the code that uses them", async () => {
    const entries = ["src/roles/catalog.ts", "src/roles/registry.ts", "src/roles/displays.ts", "src/workflow/node-roles.ts"];
    const tree = await parseDependencyTree(entries, {
      context: ROOT,
      cwd: ROOT,
      tsconfig: join(ROOT, "tsconfig.json"),
      transform: true,
      skipDynamicImports: true,
    });
    const packages = new Set(
      Object.values(tree)
        .flatMap((deps) => deps ?? [])
        .filter((d) => !d.request.startsWith(".") && !d.request.startsWith("node:"))
        .map((d) => d.request),
    );
    expect([...packages]).toEqual([]);
    // The control: the schema's builder does load zod.
    const schema = await parseDependencyTree(["src/roles/handoff-schema.ts"], { context: ROOT, cwd: ROOT, transform: true, skipDynamicImports: true });
    expect(Object.values(schema).flatMap((deps) => (deps ?? []).map((d) => d.request))).toContain("zod");
  });
});

describe("a user role from Markdown goes through the same record", () => {
  it("an agent that judges gates plays the judging record; an unknown one custom's; a user role keeps custom's line and display", () => {
    expect(roleOf("qa", true)).toBe(BUILT_IN_ROLES.tea);
    expect(roleOf("writer", false)).toBe(BUILT_IN_ROLES.custom);
    const role = userRole("writer", { title: { type: "string", description: "a title", required: true } });
    expect(role.history).toBe(BUILT_IN_ROLES.custom.history);
    expect(role.display).toBe(BUILT_IN_ROLES.custom.display);
    expect(role.writesCode).toBe(true);
    expect(Object.keys(handoffFields(role))).toEqual(["title"]);
  });

  it("builds a record's fields once, shared by a copy of it", () => {
    const copy = { ...BUILT_IN_ROLES.custom, id: "reviewer" };
    expect(handoffFields(copy)).toBe(handoffFields(BUILT_IN_ROLES.custom));
  });
});
