import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import type { GateResult, YoloEvent } from "../../src/events/schema.js";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, call, director, handoff, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";

const REQ = "Add sub(a, b) to @m/core";
const pkg = (name: string, deps: Record<string, string> = {}) =>
  JSON.stringify({ name, version: "1.0.0", type: "module", main: "index.js", scripts: { test: "node --test test/" }, dependencies: deps });
const testOf = (name: string, body: string, from: string) =>
  `import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport * as m from "${from}";\ntest(${JSON.stringify(name)}, () => { ${body} });\n`;

/**
 * An npm workspaces monorepo: @m/app uses @m/core (declared in its manifest), @m/util stands alone. node_modules
 * holds the links `npm install` would make (no network); it is ignored by git.
 */
function monorepo(onTestFinished: Parameters<typeof project>[0], extra: Record<string, string> = {}): string {
  const root = project(onTestFinished, {
    ...extra,
    "package.json": JSON.stringify({
      name: "mono",
      version: "1.0.0",
      private: true,
      workspaces: ["packages/*"],
      scripts: { test: "npm test --workspaces --if-present" },
    }),
    ".gitignore": "node_modules/\n",
    "packages/core/package.json": pkg("@m/core"),
    "packages/core/index.js": "export const add = (a, b) => a + b;\n",
    "packages/core/test/core.test.js": testOf("core adds", "assert.equal(m.add(1, 2), 3);", "../index.js"),
    "packages/app/package.json": pkg("@m/app", { "@m/core": "1.0.0" }),
    "packages/app/index.js": 'import { add } from "@m/core";\nexport const twice = (a) => add(a, a);\n',
    "packages/app/test/app.test.js": testOf("app twice", "assert.equal(m.twice(2), 4);", "../index.js"),
    "packages/util/package.json": pkg("@m/util"),
    "packages/util/index.js": "export const id = (a) => a;\n",
    "packages/util/test/util.test.js": testOf("util id", "assert.equal(m.id(7), 7);", "../index.js"),
  });
  mkdirSync(join(root, "node_modules/@m"), { recursive: true });
  for (const p of ["core", "app", "util"]) symlinkSync(`../../packages/${p}`, join(root, `node_modules/@m/${p}`));
  return root;
}

// The dev changes @m/core but its handoff claims it changed only @m/util: the gate must not believe it.
const devTouchesCore = (core: string) => [
  call("write_file", { path: "packages/core/index.js", content: core }),
  handoff({ summary: "changed util", files_changed: ["packages/util/index.js"] }),
];

const teaGates = (events: YoloEvent[]) => events.filter((e) => (e.type === "gate.started" && !e.baseline) || (e.type === "gate.result" && !e.gate.baseline));

describe.concurrent("an npm workspaces monorepo: the gate runs what the change touches, read from git", { timeout: 240_000 }, () => {
  it("runs the changed package and the one that depends on it (not the one the handoff names), then confirms on the whole suite", async ({
    expect,
    onTestFinished,
  }) => {
    const root = monorepo(onTestFinished);
    const script = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: devTouchesCore("export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n"),
      tea: [teaSays("PASS")],
    });
    const r = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, script)).url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const events = parseEvents(r.stdout);

    const baseline = events.find((e) => e.type === "gate.started" && e.baseline);
    expect(baseline).toMatchObject({ command: "npm test", scope: { kind: "all", units: [], reason: "the baseline runs the whole suite" } });
    const [narrowStart, narrowResult, wholeStart, wholeResult, ...rest] = teaGates(events);
    expect(rest).toEqual([]);
    expect(narrowStart).toMatchObject({
      type: "gate.started",
      command: "npm run test --if-present --workspace='@m/app' --workspace='@m/core'",
      scope: { kind: "changed", units: ["@m/app", "@m/core"] },
    });
    // Tests are tied to their workspace; util's test is outside the scope, so it is not "missing".
    expect(narrowResult).toMatchObject({ type: "gate.result", gate: { passed: true, blocking: false, tests: 2, scope: { kind: "changed" } } });
    expect(narrowResult?.type === "gate.result" && narrowResult.gate.missing).toBeUndefined();
    expect(wholeStart).toMatchObject({
      type: "gate.started",
      command: "npm test",
      scope: { kind: "all", reason: expect.stringMatching(/confirms .*@m\/app, @m\/core.* whole suite/) },
    });
    expect(wholeResult).toMatchObject({ type: "gate.result", gate: { passed: true, blocking: false, tests: 3, scope: { kind: "all" } } });

    // show: the gate that decided is the whole-suite run, and it names the run it confirmed.
    const shown = await runYolo(["show", events[0].thread], { cwd: root });
    expect(shown.stdout).toMatch(/attempt 1 test \(npm test\): passed — 3 passed, 0 failed — whole suite: confirms the passing run on @m\/app, @m\/core/);
  });

  it("a change that breaks the shared library fails its dependent's test in the narrowed run; no whole-suite run follows a red one", async ({
    expect,
    onTestFinished,
  }) => {
    const root = monorepo(onTestFinished);
    const script = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: devTouchesCore("export const add = (a, b) => a - b;\n"),
      tea: [teaSays("FAIL", ["add subtracts"])],
    });
    const r = await runYolo(["run", "--no-tui", "--max-fix-attempts", "0", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, script)).url });
    expect(r.exitCode, describeResult(r)).toBe(1);
    expect(r.stdout).toContain("running gate test: npm run test --if-present --workspace='@m/app' --workspace='@m/core'… [changed: @m/app, @m/core]");
    expect(r.stdout).toMatch(/@m\/app › app twice/);
    expect(r.stdout).not.toMatch(/running gate test: npm test…/);
    const [{ id: thread }] = JSON.parse((await runYolo(["threads", "--json"], { cwd: root })).stdout) as { id: string }[];
    const shown = await runYolo(["show", thread], { cwd: root });
    expect(shown.stdout).toMatch(
      /attempt 1 test \(npm run test --if-present --workspace='@m\/app' --workspace='@m\/core'\): failed, exit 1 .*— changed: @m\/app, @m\/core/,
    );

    // The blocking result as the thread keeps it (the same run: the text view above and the state need not two runs).
    const state = JSON.parse((await runYolo(["show", "--json", thread], { cwd: root })).stdout).state as { lastGates: GateResult[] };
    expect(state.lastGates).toHaveLength(1);
    const [result] = state.lastGates;
    expect(result.baseline).toBeFalsy();
    expect(result.blocking).toBe(true);
    expect([...(result.regressions ?? [])].sort()).toEqual(["@m/app › app twice", "@m/core › core adds"]);
  });

  it("a change outside every workspace (here a root CHANGELOG.md) runs the whole suite and says why", async ({ expect, onTestFinished }) => {
    const root = monorepo(onTestFinished);
    const dev = [
      call("write_file", { path: "packages/core/notes.md", content: "x\n" }),
      call("write_file", { path: "CHANGELOG.md", content: "- sub\n" }),
      handoff({ summary: "notes", files_changed: ["packages/core/notes.md"] }),
    ];
    const r = await runYolo(["run", "--json", REQ], {
      cwd: root,
      baseURL: (await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS")] }))).url,
    });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(teaGates(parseEvents(r.stdout))[0]).toMatchObject({
      type: "gate.started",
      command: "npm test",
      scope: { kind: "all", units: [], reason: "CHANGELOG.md is outside every workspace" },
    });
  });

  it('gateScope "all" and --test-cmd run the whole suite as written; a configured gate with scope: "changed" is narrowed', async ({
    expect,
    onTestFinished,
  }) => {
    const good = "export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n";
    const runWith = async (extra: Record<string, string>, args: string[]) => {
      const script = director({ analyst: [analystDone], pm: [pmDone(false)], dev: devTouchesCore(good), tea: [teaSays("PASS")] });
      const r = await runYolo(["run", "--json", ...args, REQ], { cwd: monorepo(onTestFinished, extra), baseURL: (await mockWith(onTestFinished, script)).url });
      expect(r.exitCode, describeResult(r)).toBe(0);
      return teaGates(parseEvents(r.stdout));
    };
    const [all, testCmd, optedIn] = await Promise.all([
      runWith({ "yolo.config.ts": 'export default { gateScope: "all" };\n' }, []),
      runWith({}, ["--test-cmd", "npm test"]),
      runWith({ "yolo.config.ts": 'export default { gates: [{ name: "test", command: "npm test", scope: "changed" }] };\n' }, []),
    ]);
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ type: "gate.started", command: "npm test", scope: { kind: "all", reason: 'gateScope is "all"' } });
    expect(testCmd).toHaveLength(2);
    expect(testCmd[0]).toMatchObject({
      type: "gate.started",
      command: "npm test",
      scope: { kind: "all", reason: expect.stringMatching(/configured gate \(in yolo.config.ts or given as the test command\) runs as written/) },
    });
    expect(optedIn.map((e) => (e.type === "gate.started" ? e.scope?.kind : null))).toEqual(["changed", null, "all", null]);
  });

  it("a dev that empties a workspace's own test script inside the scope: that workspace's tests are missing from the narrowed run, and it blocks", async ({
    expect,
    onTestFinished,
  }) => {
    const root = monorepo(onTestFinished);
    const dev = [
      call("write_file", { path: "packages/core/index.js", content: "export const add = (a, b) => a - b;\n" }),
      call("write_file", {
        path: "packages/core/package.json",
        content: JSON.stringify({ name: "@m/core", version: "1.0.0", type: "module", main: "index.js", scripts: { test: "exit 0" } }),
      }),
      handoff({ summary: "done", files_changed: ["packages/util/index.js"] }),
    ];
    const script = director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS")] });
    const r = await runYolo(["run", "--json", "--max-fix-attempts", "0", REQ], { cwd: root, baseURL: (await mockWith(onTestFinished, script)).url });
    expect(r.exitCode, describeResult(r)).toBe(1);
    const gates = teaGates(parseEvents(r.stdout));
    expect(gates).toHaveLength(2);
    const result = gates[1];
    expect(result).toMatchObject({ type: "gate.result", gate: { blocking: true, scope: { kind: "changed", units: ["@m/app", "@m/core"] } } });
    // app's test ran and failed; core's vanished: missing, in the scope, so a regression. util's is not missing.
    expect(result?.type === "gate.result" && result.gate.missing).toEqual(["@m/core › core adds"]);
    expect(result?.type === "gate.result" && [...(result.gate.regressions ?? [])].sort()).toEqual(["@m/app › app twice", "@m/core › core adds"]);
  });
});
