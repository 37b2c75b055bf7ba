import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo, threadIdFrom } from "../helpers/cli.js";
import { director, handoff } from "../helpers/director.js";
import { lastToolResults, textOf } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import type { YoloEvent } from "../../src/events/schema.js";
import { createPlainRenderer } from "../../src/ui/plain-renderer.js";
import { initialViewState, reduce } from "../../src/ui/view-state.js";

// A role added by files only: the agent's Markdown declares its handoff, yolo.config.ts puts it in a workflow.
const AUDITOR = `---
name: Security auditor
description: Reviews the repository for security risks.
tools: [read_file, list_files]
handoff:
  risk: { type: enum, values: [low, medium, high], description: "the overall risk" }
  issues:
    type: string[]
    description: each security issue found
    required: false
  blocking: { type: boolean, description: "true when the change must not ship" }
---
You are a security auditor. Report the risks you find.
`;

const CONFIG = `import { defineConfig } from "yolo";
export default defineConfig({
  workflow: {
    nodes: { "security-auditor": { kind: "agent" } },
    edges: [{ from: "start", to: "security-auditor" }, { from: "security-auditor", to: "end" }],
  },
});
`;

describe("a user-defined role from agents/<id>.md through the built binary", { timeout: 240_000 }, () => {
  it("checks the hostile handoff, takes the corrected one, and shows its fields in the events, show, show --json and the report", async ({
    onTestFinished,
  }) => {
    const root = project(onTestFinished, { "agents/security-auditor.md": AUDITOR, "yolo.config.ts": CONFIG });
    let errorSeen = "";
    const mock = await mockWith(
      onTestFinished,
      director({
        "security-auditor": [
          // Wrong types everywhere, a value outside the enum, and an oversized string where a list belongs.
          handoff({ risk: "catastrophic", issues: "x".repeat(5000), blocking: "yes" }),
          (req) => {
            errorSeen = textOf(lastToolResults(req)[0]?.content);
            return handoff({ risk: "high", issues: ["password compared with ==", "token written to the log"], blocking: true });
          },
        ],
      }),
    );
    const run = await runYolo(["run", "--json", "Audit the login code"], { cwd: root, baseURL: mock.url });
    expect(run.exitCode, describeResult(run)).toBe(0);
    expect(errorSeen).toMatch(/risk/);
    expect(errorSeen).toMatch(/issues/);
    expect(errorSeen).toMatch(/blocking/);
    const events = parseEvents(run.stdout) as YoloEvent[];
    const completed = events.find((e) => e.type === "node.completed" && e.node === "security-auditor") as { summary?: string } | undefined;
    expect(completed?.summary).toBe("risk: high, issues: 2 items, blocking: true");
    // The views: the live view's agent row and the plain renderer's line, from the run's own events (the role's `write` summary).
    const view = events.reduce(reduce, initialViewState);
    expect(view.agents.find((a) => a.id === "security-auditor")).toMatchObject({ status: "done", summary: "risk: high, issues: 2 items, blocking: true" });
    let plain = "";
    const renderer = createPlainRenderer((s) => {
      plain += s;
    });
    for (const e of events) renderer.onEvent(e);
    await renderer.close();
    expect(plain).toContain("✔ security-auditor: risk: high, issues: 2 items, blocking: true");
    const thread = threadIdFrom(run.stdout);

    const show = await runYolo(["show", thread], { cwd: root });
    expect(show.exitCode, describeResult(show)).toBe(0);
    expect(show.stdout).toContain(
      "\nNotes:\n- security-auditor:\n  risk: high\n  issues:\n    - password compared with ==\n    - token written to the log\n  blocking: true",
    );

    const json = await runYolo(["show", thread, "--json"], { cwd: root });
    const state = JSON.parse(json.stdout).state as { notes: Record<string, { outputs: unknown }> };
    expect(state.notes["security-auditor"].outputs).toEqual({
      risk: "high",
      issues: ["password compared with ==", "token written to the log"],
      blocking: true,
    });

    const report = await runYolo(["report", thread, "--format", "markdown"], { cwd: root });
    expect(report.exitCode, describeResult(report)).toBe(0);
    expect(report.stdout).toContain(
      "### Agent outputs\n- **security-auditor**\n  - risk: high\n  - issues:\n    - password compared with ==\n    - token written to the log\n  - blocking: true",
    );
  });

  it("refuses bad handoff frontmatter before any model call: exit 2 naming the file and the field", async ({ onTestFinished }) => {
    const bad = AUDITOR.replace("type: enum, values: [low, medium, high]", "type: enum").replace("blocking: {", "escalate_to_human: {");
    const root = project(onTestFinished, { "agents/security-auditor.md": bad, "yolo.config.ts": CONFIG });
    const mock = await mockWith(onTestFinished, director({}));
    const run = await runYolo(["run", "--json", "Audit"], { cwd: root, baseURL: mock.url });
    expect(run.exitCode, describeResult(run)).toBe(2);
    expect(run.stderr).toContain("agents/security-auditor.md: handoff.risk.values: an enum needs `values`");
    expect(run.stderr).toContain('agents/security-auditor.md: handoff.escalate_to_human: "escalate_to_human" is a reserved handoff key');
    expect(mock.requests).toHaveLength(0);

    // A flag the workflow branches on may not share its name with a declared field: both would be one argument.
    const clash = CONFIG.replace('"security-auditor": { kind: "agent" }', '"security-auditor": { kind: "agent", sets: ["blocking"] }').replace(
      '{ from: "security-auditor", to: "end" }',
      '{ from: "security-auditor", to: "end", when: "blocking" }, { from: "security-auditor", to: "end" }',
    );
    const root2 = project(onTestFinished, { "agents/security-auditor.md": AUDITOR, "yolo.config.ts": clash });
    const clashed = await runYolo(["run", "--json", "Audit"], { cwd: root2, baseURL: mock.url });
    expect(clashed.exitCode, describeResult(clashed)).toBe(2);
    expect(clashed.stderr).toContain('workflow.nodes.security-auditor.sets[0]: "blocking" is also a handoff field of agent "security-auditor"');
    expect(mock.requests).toHaveLength(0);
  });
});
