import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";

// A module.register() hook that appends every resolved module URL to a file (hooks run off the main thread,
// so a file is the simplest reliable channel back).
const HOOKS = `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + "\\n");
  return result;
}
`;
const REGISTER = `import { register } from "node:module";
register("./hooks.mjs", import.meta.url, { data: { log: process.env.YOLO_TEST_MODULE_LOG } });
`;

// Heavy dependencies that only a run needs.
const HEAVY = /\/node_modules\/(@langchain\/|ink\/|react\/|react-reconciler\/|better-sqlite3\/|jiti\/)|\/dist\/(engine|ui|agents|llm)\//;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "yolo-lazy-"));
  writeFileSync(join(dir, "hooks.mjs"), HOOKS);
  writeFileSync(join(dir, "register.mjs"), REGISTER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Runs the real binary with the hook and returns the modules it loaded.
async function modulesLoadedBy(args: string[], name: string) {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, "");
  const r = await runYolo(args, {
    cwd: dir,
    nodeArgs: ["--import", pathToFileURL(join(dir, "register.mjs")).href],
    env: { YOLO_TEST_MODULE_LOG: log },
  });
  return { r, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

describe("yolo --version and --help load only the CLI shell", () => {
  it.each([
    ["--version", "version"],
    ["--help", "help"],
    ["help run", "help-run"],
  ])("`yolo %s` exits 0 without loading LangGraph, LangChain, Ink, React or the engine", async (args, name) => {
    const { r, modules } = await modulesLoadedBy(args.split(" "), name);
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).not.toBe("");
    // The hook really saw the CLI load; otherwise the absence below proves nothing.
    expect(modules.some((m) => m.endsWith("/dist/cli/main.js"))).toBe(true);
    expect(modules.some((m) => m.includes("/node_modules/commander/"))).toBe(true);
    expect(modules.filter((m) => HEAVY.test(m))).toEqual([]);
  });

  it("the hook does catch heavy modules: `yolo graph` loads LangGraph (a control for the cases above)", async () => {
    const { r, modules } = await modulesLoadedBy(["graph"], "graph");
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(modules.some((m) => m.includes("/node_modules/@langchain/langgraph/"))).toBe(true);
  });

  it("--version prints the package version", async () => {
    const { r } = await modulesLoadedBy(["--version"], "version-text");
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(r.stdout.trim()).toBe(pkg.version);
  });
});
