import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAgents } from "../../../src/agents/loader.js";
import { PipelineState, type PipelineStateType } from "../../../src/state/pipeline.js";
import { nodeBrief } from "../../../src/prompt/brief.js";
import { roleHandoffJsonSchema, roleHandoffSchema } from "../../../src/roles/handoff-schema.js";
import { applyReviewEdit, reviewArtifact } from "../../../src/roles/review-kit.js";
import { BUILT_IN_ROLES, roleOf } from "../../../src/roles/registry.js";
import type { RoleRecord } from "../../../src/roles/types.js";
import { tempDir } from "../../helpers/per-test.js";

const AUDITOR = `---
name: Security auditor
description: Reviews the change for security risks.
tools: [read_file, list_files, search_files]
handoff:
  risk: { type: enum, values: [low, medium, high], description: "the overall risk of the change" }
  issues:
    type: string[]
    description: each security issue found
    required: false
  blocking: { type: boolean, description: "true when the change must not ship" }
  score: { type: number, required: false }
  summary: { type: string, description: "the audit in a few sentences" }
---
You are a security auditor. Read the change and report its risks.
`;

/** Loads one agents folder holding these files, as a run does (the shipped defaults underneath). */
function load(dir: string, files: Record<string, string>) {
  const agents = join(dir, "agents");
  mkdirSync(agents, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(agents, name), text);
  return loadAgents({ projectAgentsDir: agents, cwd: dir });
}

function emptyState(): PipelineStateType {
  const state: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(PipelineState.spec)) state[key] = (channel as { get(): unknown }).get?.() ?? undefined;
  return {
    ...(state as PipelineStateType),
    notes: {},
    stories: [],
    decisions: [],
    acceptanceCriteria: [],
    filesChanged: [],
    lastGates: [],
    findings: [],
    answers: [],
  };
}

function auditorRole(dir: string): RoleRecord {
  const { agents, errors } = load(dir, { "security-auditor.md": AUDITOR });
  expect(errors).toEqual([]);
  const role = roleOf("security-auditor", false, agents.get("security-auditor"));
  expect(role.id).toBe("security-auditor");
  return role;
}

const good = { risk: "high", issues: ["SQL built by string concatenation", "token logged"], blocking: true, summary: "Two injection risks." };

describe("a role added from a Markdown file only", () => {
  it("is looked up from the agent's frontmatter, offered to the model as its handoff schema, and keeps plain agents custom", ({ onTestFinished }) => {
    const role = auditorRole(tempDir(onTestFinished));
    const json = roleHandoffJsonSchema(role) as { properties: Record<string, { enum?: string[]; type?: string }>; required: string[] };
    expect(Object.keys(json.properties).sort()).toEqual(["blocking", "escalate_to_human", "issues", "question", "risk", "score", "summary"]);
    expect(json.properties.risk.enum).toEqual(["low", "medium", "high"]);
    expect(json.required.sort()).toEqual(["blocking", "risk", "summary"]);
    expect(roleOf("reviewer", false)).toBe(BUILT_IN_ROLES.custom);
    expect(roleOf("security-auditor", true, { id: "security-auditor", handoff: {} })).toBe(BUILT_IN_ROLES.tea);
    expect(roleOf("dev", false)).toBe(BUILT_IN_ROLES.dev);
  });

  it("accepts its declared fields and keeps them in the node's note, with a one-line summary for the views", ({ onTestFinished }) => {
    const role = auditorRole(tempDir(onTestFinished));
    const parsed = roleHandoffSchema(role).safeParse({ ...good, not_declared: "dropped" });
    expect(parsed.success).toBe(true);
    const out = role.write(parsed.data!, {
      node: "audit",
      state: emptyState(),
      gates: null,
      written: [],
      changed: null,
      root: "/nowhere",
      gateVerdict: () => ({ gateBlocked: false, fixAttempts: 0 }),
    });
    expect(out.update.notes).toEqual({ audit: { summary: "Two injection risks.", findings: [], verdict: null, outputs: good } });
    expect(out.summary).toBe("risk: high, issues: 2 items, blocking: true, summary: Two injection risks.");
  });

  it("refuses a hostile handoff — wrong types, a value outside the enum, missing fields, oversized strings — naming each field", ({ onTestFinished }) => {
    const role = auditorRole(tempDir(onTestFinished));
    const schema = roleHandoffSchema(role);
    const wrong = schema.safeParse({ risk: "catastrophic", issues: "one big string", blocking: "yes", score: "9", summary: 42 });
    expect(wrong.success).toBe(false);
    expect(wrong.error!.issues.map((i) => i.path.join(".")).sort()).toEqual(["blocking", "issues", "risk", "score", "summary"]);
    const missing = schema.safeParse({ issues: [] });
    expect(missing.error!.issues.map((i) => i.path.join(".")).sort()).toEqual(["blocking", "risk", "summary"]);
    const huge = schema.safeParse({ ...good, summary: "x".repeat(4001) });
    expect(huge.error!.issues.map((i) => i.path.join("."))).toEqual(["summary"]);
    const flood = schema.safeParse({ ...good, issues: Array.from({ length: 51 }, () => "x") });
    expect(flood.error!.issues.map((i) => i.path.join("."))).toEqual(["issues"]);
    // Every field within its own bound, but together too large for a checkpoint.
    const bulky = schema.safeParse({ ...good, summary: "s".repeat(4000), issues: Array.from({ length: 20 }, () => "i".repeat(1000)) });
    expect(bulky.success).toBe(false);
    expect(bulky.error!.issues[0].message).toMatch(/keep its fields under 16000 bytes/);
    // Escalating needs only the question, as for the built-in roles.
    expect(schema.safeParse({ escalate_to_human: true, question: "Is the admin API public?" }).success).toBe(true);
  });

  it("is briefed with its fields, and a reviewer's YAML edit is checked against them", ({ onTestFinished }) => {
    const role = auditorRole(tempDir(onTestFinished));
    const brief = nodeBrief(role, emptyState(), 3, "audit");
    expect(brief).toContain("`risk` (one of low, medium, high): the overall risk of the change");
    expect(brief).toContain("`issues` (a list of strings, optional)");
    const state = { ...emptyState(), notes: { audit: { summary: "s", findings: [], verdict: null, outputs: good } } };
    const artifact = reviewArtifact(role, state, "audit");
    expect(artifact).toContain("risk: high");
    const edited = applyReviewEdit(role, artifact.replace("risk: high", "risk: medium"), "audit");
    expect(edited).toEqual({
      update: { notes: { audit: { summary: "Two injection risks.", findings: [], verdict: null, outputs: { ...good, risk: "medium" } } } },
    });
    expect(applyReviewEdit(role, artifact.replace("risk: high", "risk: 7"), "audit")).toEqual({ error: expect.stringContaining("risk:") });
  });

  it("refuses bad handoff frontmatter with the file and the field: unknown type, enum without values, a reserved key, a built-in role", ({
    onTestFinished,
  }) => {
    const dir = tempDir(onTestFinished);
    const head = "---\nname: A\ndescription: d\ntools: []\nhandoff:\n";
    const { errors, agents } = load(dir, {
      "typo.md": `${head}  risk: { type: strin }\n---\nBody.\n`,
      "no-values.md": `${head}  risk: { type: enum }\n---\nBody.\n`,
      "reserved.md": `${head}  escalate_to_human: { type: boolean }\n---\nBody.\n`,
      "dev.md": `${head}  risk: { type: string }\n---\nBody.\n`,
      "shape.md": `${head}  risk: string\n  Bad-Name: { type: string }\n  extra: { type: string, max: 3 }\n---\nBody.\n`,
    });
    const at = (file: string) => errors.filter((e) => e.startsWith(join("agents", file)));
    expect(at("typo.md")).toEqual([expect.stringMatching(/handoff\.risk\.type: unknown type "strin"; one of string, string\[\], boolean, number, enum/)]);
    expect(at("no-values.md")).toEqual([expect.stringContaining("handoff.risk.values: an enum needs `values`")]);
    expect(at("reserved.md")).toEqual([expect.stringContaining('handoff.escalate_to_human: "escalate_to_human" is a reserved handoff key')]);
    expect(at("dev.md")).toEqual([expect.stringContaining('handoff: "dev" is a built-in role whose handoff fields are fixed')]);
    expect(at("shape.md")).toHaveLength(3);
    expect(at("shape.md").join("\n")).toMatch(/handoff\.risk: expected a mapping/);
    expect(at("shape.md").join("\n")).toMatch(/handoff\.Bad-Name: a field name must be lowercase/);
    expect(at("shape.md").join("\n")).toMatch(/handoff\.extra\.max: unknown key/);
    for (const id of ["typo", "no-values", "reserved", "shape"]) expect(agents.has(id)).toBe(false);
  });
});
