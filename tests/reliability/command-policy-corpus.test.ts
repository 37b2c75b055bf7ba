import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkCommand, defaultPolicy, narrowPolicy } from "../../src/tools/command-policy.js";
import { runCommandTool } from "../../src/tools/run-command.js";
import type { ToolContext } from "../../src/tools/types.js";
import { CORPUS } from "./command-policy-corpus.js";

// Every corpus command goes through run_command's own check. Denied ones are sent to the tool itself (a refusal
// runs nothing, so it is safe); allowed controls are only checked, not run (`rm -rf dist` stays a string).

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-policy-corpus-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const policies = {
  default: defaultPolicy(),
  user: narrowPolicy(defaultPolicy(), { deny: ["curl", "git push"] }, "user config"),
};

const ctxFor = (policy: keyof typeof policies): ToolContext => ({
  root,
  commandTimeoutS: 10,
  outputCapBytes: 4096,
  readCapBytes: 4096,
  env: {},
  secretEnvNames: [],
  commands: { policy: policies[policy], envAllow: null, sandbox: { kind: "none" } },
});

describe("command-policy corpus", () => {
  const denied = CORPUS.filter((e) => e.verdict === "deny");
  const allowed = CORPUS.filter((e) => e.verdict === "allow");

  it(`holds ${CORPUS.length} commands: ${denied.length} denied, ${allowed.length} allowed controls, with no duplicates`, () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CORPUS.map((e) => `${e.policy}:${e.command}`)).size).toBe(CORPUS.length);
  });

  it("refuses every hostile command through run_command, naming the rule, and runs nothing", async () => {
    const escapes: string[] = [];
    for (const entry of denied) {
      // An escape is recorded, never run: only a command the policy refuses is handed to the tool.
      if (checkCommand(entry.command, policies[entry.policy], { root }).ok) {
        escapes.push(`${entry.command} → allowed`);
        continue;
      }
      const outcome = await runCommandTool.run({ command: entry.command }, ctxFor(entry.policy));
      const named = /matches deny rule "[^"]+" \([^)]+\)|built-in rule "[^"]+"/.test(outcome.content);
      if (outcome.ok || !outcome.content.includes("Nothing was run.") || !named) escapes.push(`${entry.command} → ${outcome.content}`);
    }
    console.log(`command-policy corpus: ${denied.length} denied commands tried, ${escapes.length} escapes`);
    expect(escapes).toEqual([]);
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it("lets every control through", () => {
    const refusedControls = allowed
      .map((e) => ({ command: e.command, decision: checkCommand(e.command, policies[e.policy], { root }) }))
      .filter((r) => !r.decision.ok)
      .map((r) => `${r.command} → ${r.decision.ok ? "" : r.decision.reason}`);
    console.log(`command-policy corpus: ${allowed.length} controls, ${refusedControls.length} refused`);
    expect(refusedControls).toEqual([]);
  });
});
