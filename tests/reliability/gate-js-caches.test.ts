import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UserConfig } from "../../src/config/schema.js";
import type { GateResult, YoloEvent } from "../../src/events/schema.js";
import { analystDone, call, director, handoff, pmDone, teaSays, type Turn } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { repoModules } from "../helpers/repo-modules.js";

// A gate never takes its result from a cache an agent wrote. The real tools (the repository's own tsc and jest): an
// incremental `tsc -b` skips checking a project whose build info is newer than its sources, so an agent that breaks
// the types and touches the build info gets a green type check; jest takes transformed code from its cache folder.
// Each route has a control: a right change with the same cache work passes, so the cache work alone fails nothing.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const REPO_MODULES = repoModules();
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
      // lib without the DOM's declarations (which the default lib adds): about half of each tsc -b's CPU.
      compilerOptions: { composite: true, outDir: "dist", strict: true, module: "nodenext", target: "es2022", lib: ["es2022"], types: [], skipLibCheck: true },
      include: ["src"],
    }),
    "src/a.ts": "export const n: number = 1;\n",
  },
  config: { gates: [{ name: "types", command: "node_modules/.bin/tsc -b" }] } satisfies UserConfig,
};
const WRONG = "export const n: number = 'x';\n";
const touchInfo = sh("touch dist/tsconfig.tsbuildinfo");

// jest with its cache in the project: the agent runs jest on its wrong add.js (the transform cache now holds it) and
// rewrites the cached code to the right one, with the checksum jest checks.
const JEST = {
  files: {
    "package.json": JSON.stringify({ name: "jf", private: true, scripts: { test: "jest" }, jest: { cacheDirectory: "<rootDir>/.jest-cache" } }),
    "src/add.js": "exports.add = (a, b) => a + b;\n",
    "test/add.test.js": 'const { add } = require("../src/add.js");\ntest("adds two numbers", () => { expect(add(2, 3)).toBe(5); });\n',
  },
  config: { gates: [{ name: "test", command: "node_modules/.bin/jest" }] } satisfies UserConfig,
};
const FORGE = `const fs = require("node:fs"), path = require("node:path"), crypto = require("node:crypto");
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
for (const f of walk(".jest-cache")) {
  const text = fs.readFileSync(f, "utf8");
  if (!text.includes("a - b") || f.endsWith(".map")) continue;
  const code = text.slice(33).replace("a - b", "a + b");
  fs.writeFileSync(f, crypto.createHash("sha1").update(code).digest("hex").slice(0, 32) + "\\n" + code);
}
`;
const BAD_JS = "exports.add = (a, b) => a - b;\n";
const warmCache = sh("node_modules/.bin/jest || true");
const forged = [write("src/add.js", BAD_JS), warmCache, write("forge.cjs", FORGE), sh("node forge.cjs")];

describe("gates take no result from a JS cache an agent wrote", { timeout: 300_000 }, () => {
  it("tsc -b: a type error with the build info touched newer than the sources is still a type error", async () => {
    const r = await run([write("src/a.ts", WRONG), touchInfo, devDone], TSC.files, TSC.config);
    expect(r.result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(judged(r.events)[0]).toMatchObject({ name: "types", passed: false, blocking: true });
  });

  // The control is the right change: touching the build info is not what fails the case above. That the type error
  // fails a tsc gate without the forgery is the same case with less done to it (and the red baseline of
  // tests/integration/gates/lint-findings-real-tools.test.ts's tsc project), so it has no run of its own.
  it("control: a right change with the build info touched passes", async () => {
    const right = await run([write("src/a.ts", "export const n: number = 2;\n"), touchInfo, devDone], TSC.files, TSC.config);
    expect(right.result).toMatchObject({ status: "passed", exitCode: 0 });
  });

  it("jest: the wrong add.js with its transform cache rewritten to the right code still fails", async () => {
    const r = await run([...forged, devDone], JEST.files, JEST.config);
    expect(r.result).toMatchObject({ status: "failed", exitCode: 1 });
    expect(judged(r.events)[0]).toMatchObject({ name: "test", passed: false, blocking: true });
  });

  it("control: a right change after the agent filled jest's cache passes", async () => {
    const right = await run([warmCache, write("src/add.js", "exports.add = (a, b) => b + a;\n"), devDone], JEST.files, JEST.config);
    expect(right.result).toMatchObject({ status: "passed", exitCode: 0 });
  });
});
