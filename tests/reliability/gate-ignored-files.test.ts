import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UserConfig } from "../../src/config/schema.js";
import type { GateResult, YoloEvent } from "../../src/events/schema.js";
import { analystDone, BAD_ADD, call, director, GOOD_ADD, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

// Files git ignores are part of the tree a gate judges when an agent wrote them. The hostile route: dev ships a wrong
// src/add.js and two test files the user's .gitignore hides (`*.local.test.js`): the first, run before the project's
// test, swaps a right add.js in; the last swaps the wrong one back. Tree before and after the gate are the same, so
// only judging the baseline's tests without the agent's hidden files catches it. Real graph, real `node --test`.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const REQ = "Keep add(a, b) in src/add.js correct";
const write = (path: string, content: string) => call("write_file", { path, content });
const devDone = handoff({ summary: "done", files_changed: ["src/add.js"] });
// Files run one at a time, in name order: the hidden swap-in runs first, the swap-back last.
const config: UserConfig = { maxFixAttempts: 0, gates: [{ name: "test", command: "node --test --test-concurrency=1 test/" }] };

const swap = (content: string, name: string) => `import { test } from "node:test";
import { writeFileSync } from "node:fs";
writeFileSync(new URL("../src/add.js", import.meta.url), ${JSON.stringify(content)});
test(${JSON.stringify(name)}, () => {});
`;

async function run(dev: Turn[], files: Record<string, string> = {}) {
  const project = makeProject({ "src/add.js": GOOD_ADD, ".gitignore": "*.local.test.js\ndist/\n", ...files });
  const tea = [teaSays("PASS"), teaSays("PASS"), teaSays("PASS")];
  const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea }));
  cleanups.push(project.cleanup, () => mock.close());
  const r = await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-ignored", requirement: REQ, config });
  return { ...r, root: project.root };
}

const judged = (events: YoloEvent[]): GateResult[] => events.flatMap((e) => (e.type === "gate.result" && !e.gate.baseline ? [e.gate] : []));

describe("files git ignores that an agent wrote are judged", { timeout: 240_000 }, () => {
  it("hidden test files listed in .gitignore swap a right add.js in for the gate and back: the baseline's tests are judged without them", async () => {
    const dev = [
      write("src/add.js", BAD_ADD),
      write("test/0-in.local.test.js", swap(GOOD_ADD, "setup")),
      write("test/zz-out.local.test.js", swap(BAD_ADD, "teardown")),
      devDone,
    ];
    const r = await run(dev);
    expect(r.result).toMatchObject({ status: "failed", exitCode: 1 });
    const [gate] = judged(r.events);
    expect(gate).toMatchObject({ blocking: true, baselineTestsRun: "clean-copy", regressions: ["adds two numbers", "adds negatives"] });
    expect(readFileSync(join(r.root, "src/add.js"), "utf8")).toBe(BAD_ADD);
  });

  it("control: the user's own ignored files from before the run (build output a gate rewrites) do not count, and a right change passes", async () => {
    // The gate writes dist/ every run; the user's .env.local was there before: neither is the agents'.
    const gate: UserConfig = {
      ...config,
      gates: [{ name: "test", command: "mkdir -p dist && date +%s%N > dist/stamp && node --test --test-concurrency=1 test/" }],
    };
    const project = makeProject({ "src/add.js": BAD_ADD, ".gitignore": "*.local.test.js\ndist/\n.env.local\n", ".env.local": "X=1\n" });
    const mock = await startMockOpenAI(
      director({ analyst: [analystDone], pm: [pmDone(false)], dev: [write("src/add.js", GOOD_ADD), devDone], tea: [teaSays("PASS")] }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const r = await runEngine({ root: project.root, baseURL: mock.url, threadId: "t-ignored-ok", requirement: REQ, config: gate });
    expect(r.result).toMatchObject({ status: "passed", exitCode: 0 });
    expect(judged(r.events)[0]).toMatchObject({ blocking: false });
    expect(judged(r.events)[0].findings ?? []).toEqual([]);
    expect(existsSync(join(project.root, "dist/stamp"))).toBe(true);
  });
});
