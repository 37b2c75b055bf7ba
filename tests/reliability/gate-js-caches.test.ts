import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UserConfig } from "../../src/config/schema.js";
import type { GateResult, YoloEvent } from "../../src/events/schema.js";
import { analystDone, call, director, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";

// A gate never takes its result from a cache an agent wrote. The real tools (the repository's own tsc and jest): an
// incremental `tsc -b` skips checking a project whose build info is newer than its sources, so an agent that breaks
// the types and touches the build info gets a green type check; jest takes transformed code from its cache folder.
// Each route has a control: the same change without the forgery, and a right change with it.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  if (!process.env.KEEP) for (const c of cleanups.splice(0)) await c();
});

const REPO_MODULES = join(import.meta.dirname, "..", "..", "node_modules");
const REQ = "Keep src/a.ts typed";
const sh = (command: string) => call("run_command", { command });
const write = (path: string, content: string) => call("write_file", { path, content });
const devDone = handoff({ summary: "done", files_changed: ["src/a.ts"] });

async function run(dev: Turn[], files: Record<string, string>, config: UserConfig) {
  const project = makeProject({ ".gitignore": "node_modules\ndist/\n.jest-cache/\n", ...files });
  symlinkSync(REPO_MODULES, join(project.root, "node_modules"), "dir");
  const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS"), teaSays("PASS")] }));
  cleanups.push(project.cleanup, () => mock.close());
  return runEngine({ root: project.root, baseURL: mock.url, threadId: "t-cache", requirement: REQ, config: { maxFixAttempts: 0, ...config } });
}

const judged = (events: YoloEvent[]): GateResult[] => events.flatMap((e) => (e.type === "gate.result" && !e.gate.baseline ? [e.gate] : []));

const TSC = {
  files: {
    "package.json": JSON.stringify({ name: "ts", private: true }),
    "tsconfig.json": JSON.stringify({
      compilerOptions: { composite: true, outDir: "dist", strict: true, module: "nodenext", target: "es2022", types: [], skipLibCheck: true },
      include: ["src"],
    }),
    "src/a.ts": "export const n: number = 1;\n",
  },
  config: { gates: [{ name: "types", command: "node_modules/.bin/tsc -b" }] } satisfies UserConfig,
};
const WRONG = "export const n: number = 'x';\n";
const touchInfo = sh("touch dist/tsconfig.tsbuildinfo");

describe("gates take no result from a JS cache an agent wrote", { timeout: 300_000 }, () => {
  it("tsc -b: a type error with the build info touched newer than the sources is still a type error", async () => {
    const r = await run([write("src/a.ts", WRONG), touchInfo, devDone], TSC.files, TSC.config);
    expect(r.result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(judged(r.events)[0]).toMatchObject({ name: "types", passed: false, blocking: true });
  });

  it("control: without the forged build info the type error fails; a right change with it touched passes", async () => {
    const plain = await run([write("src/a.ts", WRONG), devDone], TSC.files, TSC.config);
    expect(plain.result).toMatchObject({ status: "failed", exitCode: 1 });
    const right = await run([write("src/a.ts", "export const n: number = 2;\n"), touchInfo, devDone], TSC.files, TSC.config);
    expect(right.result).toMatchObject({ status: "passed", exitCode: 0 });
  });
});
