import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BIN, cleanEnv, deferred, describeResult, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, BAD_ADD, call, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { requireTool } from "../helpers/requires.js";
import { BACKENDS, useTestDatabase } from "../helpers/postgres.js";

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
// The hooks see ES modules only; require() (CommonJS, e.g. jiti) is logged by wrapping Module._load.
const REGISTER = `import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";
import { pathToFileURL } from "node:url";
const log = process.env.YOLO_TEST_MODULE_LOG;
register("./hooks.mjs", import.meta.url, { data: { log } });
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (!Module.isBuiltin(request)) {
    try { appendFileSync(log, pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + "\\n"); } catch {}
  }
  return load.apply(this, arguments);
};
// The run bundle (dist/cli/run.cjs, one vm.Script that no hook sees) reports the modules it evaluates here.
globalThis[Symbol.for("yolo.bundle-module-evaluated")] = (name) => appendFileSync(log, "bundle:" + name + "\\n");
`;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

// Heavy dependencies that only a run needs: packages, and yolo's own engine-side folders.
const HEAVY = /^(@langchain\/.*|ink|react|react-reconciler|better-sqlite3|jiti|src\/(engine|ui|agents|llm))$/;

// What listing threads never needs: LangGraph and LangChain, the config validator and loader (no config file), the
// agents' YAML, execa (git runs through node:child_process), the model client, the live view.
const LISTING_NEVER = /^(@langchain\/.*|ink|react|react-reconciler|jiti|zod|yaml|execa|src\/(agents|llm))$/;

// The CLI is bundled into chunks (scripts/build.mjs), so a loaded file can hold many packages: the build's
// dist/chunks.json says which. A file outside the bundle stands for its own package or source folder.
const CHUNKS = JSON.parse(readFileSync(new URL("../../dist/chunks.json", import.meta.url), "utf8")) as Record<string, string[]>;
function packagesIn(url: string): string[] {
  const built = /\/dist\/(.+\.c?js)$/.exec(url);
  // The light CLI's loader compiles dist/cli/light.cjs through node:vm, which no hook sees: loading the loader stands
  // for loading everything the light bundle holds, but for the SQLite driver's JavaScript, whose use shows as its
  // compiled addon being loaded (a require the hook sees).
  if (built?.[1] === "cli/light-loader.cjs") return ["src/cli", ...CHUNKS["cli/light.cjs"].filter((p) => p !== "better-sqlite3")];
  if (built && CHUNKS[built[1]]) return CHUNKS[built[1]];
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return [pkg[1]];
  return built ? [`src/${built[1].split("/")[0]}`] : [];
}
// A module the run bundle reported evaluating ("bundle:start" stands for those it evaluates as it starts, and
// "bundle:file:cli/<pack>" for a pack of packages it left out, evaluated whole when first required).
function bundledPackages(name: string): string[] {
  if (name === "start") return CHUNKS["cli/run.cjs#start"];
  if (name.startsWith("file:")) return CHUNKS[name.slice("file:".length)];
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(name);
  if (pkg) return [pkg[1]];
  const folder = /^src\/([^/]+)\//.exec(name);
  return folder ? [`src/${folder[1]}`] : [];
}
// The loader of the light CLI also runs the run bundle: then it stands for itself, the bundle reporting the rest.
const loadedPackages = (modules: string[]) => {
  const runBundle = modules.includes("bundle:start");
  return new Set(
    modules.flatMap((m) =>
      m.startsWith("bundle:")
        ? bundledPackages(m.slice("bundle:".length))
        : runBundle && m.endsWith("/dist/cli/light-loader.cjs")
          ? ["src/cli"]
          : packagesIn(m),
    ),
  );
};
// The light CLI answered (bin/yolo.js loaded its loader) and did not hand the command to the full CLI.
const answeredLight = (modules: string[]) =>
  modules.some((m) => m.endsWith("/dist/cli/light-loader.cjs")) && !modules.some((m) => m.endsWith("/dist/cli/main.js"));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "yolo-lazy-"));
  writeFileSync(join(dir, "hooks.mjs"), HOOKS);
  writeFileSync(join(dir, "register.mjs"), REGISTER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Runs the real binary with the hook and returns the modules it loaded.
async function modulesLoadedBy(args: string[], name: string, cwd = dir, env: Record<string, string> = {}) {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, "");
  const r = await runYolo(args, {
    cwd,
    nodeArgs: ["--import", pathToFileURL(join(dir, "register.mjs")).href],
    env: { YOLO_TEST_MODULE_LOG: log, ...env },
  });
  return { r, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

// A whole passing run against the scripted model, with the module hook; `onTerminal` runs it on a terminal.
async function runLoading(name: string, flags: string[], onTerminal = false, onDone: (undo: () => Promise<void>) => void = onTestFinished) {
  const project = makeProject();
  const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
  onDone(async () => {
    await mock.close();
    project.cleanup();
  });
  const log = join(dir, `${name}.log`);
  writeFileSync(log, "");
  const register = pathToFileURL(join(dir, "register.mjs")).href;
  const args = ["run", ...flags, "Add an add(a, b) function"];
  const env = { YOLO_TEST_MODULE_LOG: log };
  const r = onTerminal
    ? await execa("script", ["-qec", [process.execPath, "--import", register, BIN, ...args].map(shellQuote).join(" "), "/dev/null"], {
        cwd: project.root,
        env: { ...cleanEnv({ baseURL: mock.url, env }), SHELL: "/bin/sh", TERM: "xterm" },
        extendEnv: false,
        reject: false,
        encoding: "utf8",
        timeout: 120_000,
        killSignal: "SIGKILL",
      })
    : await runYolo(args, { cwd: project.root, baseURL: mock.url, nodeArgs: ["--import", register], env });
  const modules = readFileSync(log, "utf8").split("\n").filter(Boolean);
  const loaded = loadedPackages(modules);
  return { r, stdout: String(r.stdout), ink: loaded.has("ink") || loaded.has("react"), loaded, root: project.root };
}

// The one whole --json run both the first describe's control and the --json case read (started by whichever runs
// first; its project is removed after the file).
const sharedCleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const undo of sharedCleanup) await undo();
});
let passing: ReturnType<typeof runLoading> | undefined;
const passingJsonRun = () => {
  passing ??= runLoading("json", ["--json"], false, (undo) => sharedCleanup.push(undo));
  return passing;
};

describe("yolo --version and --help load only the CLI shell", () => {
  it.each([
    ["--help", "help"],
    ["help run", "help-run"],
    ["run --help", "run-help"],
    ["threads rm -h", "threads-rm-help"],
  ])("`yolo %s` is answered by the shim from dist/help.json: no module of dist/ is loaded", async (args, name) => {
    const { r, modules } = await modulesLoadedBy(args.split(" "), name);
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toContain("Usage: yolo");
    expect(modules.filter((m) => m.includes("/dist/"))).toEqual([]);
  });

  it.each([
    ["-C . --help", "c-help"],
    ["-C . help run", "c-help-run"],
    ["-C . help agent", "c-help-agent"],
    ["-C . help chat", "c-help-chat"],
  ])("`yolo %s` (answered by the CLI) exits 0 without loading LangGraph, LangChain, Ink, React or the engine", async (args, name) => {
    const { r, modules } = await modulesLoadedBy(args.split(" "), name);
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).not.toBe("");
    // The hook really saw the CLI load; otherwise the absence below proves nothing.
    expect(modules.some((m) => m.endsWith("/dist/cli/main.js"))).toBe(true);
    const loaded = loadedPackages(modules);
    expect(loaded.has("commander")).toBe(true);
    expect([...loaded].filter((p) => HEAVY.test(p))).toEqual([]);
  });

  it("the hook does catch heavy modules: a whole run loads LangGraph (a control for the cases above)", async () => {
    // The --json run the next describe reads too (one run, two readings); replaying the shipped example is
    // example-session.test.ts's case.
    const { r, loaded } = await passingJsonRun();
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(loaded.has("@langchain/langgraph")).toBe(true);
  });

  it("`yolo graph` draws the workflow without LangGraph, LangChain, SQLite, Ink or React", async () => {
    const { r, modules } = await modulesLoadedBy(["graph"], "graph");
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout).toContain('tea -.->|"gate_blocked && fix_attempts_remain"| dev;');
    // The full CLI (a workflow not validated before: the light CLI hands it over) or the light one answered.
    expect(modules.some((m) => m.endsWith("/dist/cli/main.js")) || answeredLight(modules)).toBe(true);
    expect([...loadedPackages(modules)].filter((p) => /^(@langchain\/.*|ink|react|react-reconciler|better-sqlite3)$/.test(p))).toEqual([]);
  });

  it("`yolo graph` validated once by this build skips zod and YAML, and validates again after an agent file changes", async () => {
    const root = join(dir, "graph-agents");
    mkdirSync(join(root, "agents"), { recursive: true });
    const env = { XDG_CACHE_HOME: join(dir, "cache-graph") };
    const first = await modulesLoadedBy(["graph"], "graph-first", root, env);
    expect(first.r.exitCode, describeResult(first.r)).toBe(0);
    expect(loadedPackages(first.modules).has("yaml")).toBe(true);
    const again = await modulesLoadedBy(["graph"], "graph-again", root, env);
    expect(again.r.stdout).toBe(first.r.stdout);
    // Validated before: the light CLI drew it; the first time it handed the command to the full CLI (zod, YAML).
    expect(answeredLight(again.modules)).toBe(true);
    expect(answeredLight(first.modules)).toBe(false);
    expect([...loadedPackages(again.modules)].filter((p) => /^(zod|yaml)$/.test(p))).toEqual([]);
    writeFileSync(join(root, "agents", "dev.md"), "---\nname: Dev\ndescription: mine\ntools: [no_such_tool]\n---\nMy dev.\n");
    const edited = await modulesLoadedBy(["graph"], "graph-edited", root, env);
    expect(edited.r.exitCode, describeResult(edited.r)).toBe(2);
    expect(edited.r.stderr).toMatch(/agents\/dev\.md: .*no_such_tool/);
    expect(edited.r.stdout).toBe("");
  });

  it("a run's start with its agents validated before loads neither zod nor YAML (everything up to run.started ran)", async () => {
    // --require-gate in a project without a gate: refused by the last check before run.started (after the agents,
    // git, the sandbox's trial, the database and the lease), so the module log is exactly what the start loads.
    const root = join(dir, "run-start-agents");
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "demo", version: "1.0.0", type: "module" }));
    const env = { XDG_CACHE_HOME: join(dir, "cache-run-start"), OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
    const args = ["run", "--json", "--require-gate", "Add an add(a, b) function"];
    const first = await modulesLoadedBy(args, "run-start-first", root, env);
    expect(first.r.exitCode, describeResult(first.r)).toBe(2);
    expect(first.r.stderr).toMatch(/No gate: .*requireGate/);
    expect(first.r.stdout).toBe("");
    // The control: validating the agents loaded both.
    expect([...loadedPackages(first.modules)].filter((p) => /^(zod|yaml)$/.test(p)).sort()).toEqual(["yaml", "zod"]);
    const again = await modulesLoadedBy(args, "run-start-again", root, env);
    expect(again.r.exitCode, describeResult(again.r)).toBe(2);
    expect(again.r.stderr).toMatch(/No gate: .*requireGate/);
    expect(again.modules.some((m) => m.endsWith("/better-sqlite3/lib/index.js"))).toBe(true);
    expect([...loadedPackages(again.modules)].filter((p) => /^(zod|yaml|@langchain\/.*)$/.test(p))).toEqual([]);
  });

  it("`yolo graph` still validates the workflow as a run does: an invalid one exits 2 listing its problems, drawing nothing", async () => {
    const root = join(dir, "invalid-workflow");
    mkdirSync(root);
    writeFileSync(
      join(root, "yolo.config.ts"),
      'export default { workflow: { nodes: { dev: { kind: "agent" }, qa: { kind: "agent", agent: "qa" } }, edges: [{ from: "start", to: "dev" }, { from: "dev", to: "nowhere" }] } };\n',
    );
    const { r } = await modulesLoadedBy(["graph"], "graph-invalid", root);
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('workflow.edges[1].to: no node "nowhere"');
    expect(r.stderr).toMatch(/workflow\.nodes\.qa\.agent: unknown agent "qa"/);
    expect(r.stdout).toBe("");
  });

  it.each([["--version"], ["-v"], ["-C", ".", "--version"]])("`yolo %s` prints the package version", async (...args) => {
    const { r, modules } = await modulesLoadedBy(args, `version-${args.join("")}`);
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
    // Alone, the flag is answered by the shim: not even the CLI's own chunk is loaded.
    if (args.length === 1) expect(modules.filter((m) => m.includes("/dist/"))).toEqual([]);
    else expect(modules.some((m) => m.endsWith("/dist/cli/main.js"))).toBe(true);
  });
});

describe("a run loads Ink and React only for the live view, and --tui / --no-tui are honoured both ways", () => {
  it("--json loads neither Ink nor React; `yolo threads` then lists the thread without LangGraph, zod, yaml or execa", async () => {
    const { r, ink, loaded, root } = await passingJsonRun();
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(loaded.has("@langchain/langgraph")).toBe(true);
    expect(ink).toBe(false);

    const threads = await modulesLoadedBy(["threads"], "threads-listed", root);
    expect(threads.r.exitCode, describeResult(threads.r)).toBe(0);
    expect(threads.r.stdout).toMatch(/passed/);
    // The light CLI answered, and the hook saw it open the database (the SQLite driver): the control for the absences.
    expect(answeredLight(threads.modules)).toBe(true);
    expect(loadedPackages(threads.modules).has("better-sqlite3")).toBe(true);
    expect([...loadedPackages(threads.modules)].filter((p) => LISTING_NEVER.test(p))).toEqual([]);

    // A config file is loaded and validated (zod, jiti) when there is one: the control for the absence above. A
    // value validated before (cached in the user's cache directory) is not validated again: no zod.
    const env = { XDG_CACHE_HOME: join(dir, "cache-threads") };
    writeFileSync(join(root, "yolo.config.ts"), "export default {};\n");
    // The project ran before without a config: the new one is a change read-only commands run once it is trusted.
    expect((await runYolo(["config", "trust"], { cwd: root, env })).exitCode).toBe(0);
    const configured = await modulesLoadedBy(["threads"], "threads-configured", root, env);
    expect(configured.r.exitCode, describeResult(configured.r)).toBe(0);
    expect(loadedPackages(configured.modules).has("zod")).toBe(true);
    expect(configured.modules.some((m) => /\/dist\/_\/validate-config-/.test(m))).toBe(true);
    const again = await modulesLoadedBy(["threads"], "threads-configured-again", root, env);
    expect(again.r.exitCode, describeResult(again.r)).toBe(0);
    expect(again.r.stdout).toMatch(/passed/);
    expect(answeredLight(again.modules)).toBe(true);
    // The config ran from its trusted bundle: neither made again (esbuild) nor transpiled (jiti), nor validated.
    expect(loadedPackages(again.modules).has("jiti")).toBe(false);
    expect(loadedPackages(again.modules).has("esbuild")).toBe(false);
    expect(again.modules.some((m) => /\/dist\/_\/validate-config-/.test(m))).toBe(false);
    expect([...loadedPackages(again.modules)].filter((p) => LISTING_NEVER.test(p))).toEqual([]);
  });

  it("a cached config is never a stale one: `yolo graph` follows every edit of yolo.config.ts, and an invalid edit is reported", async () => {
    const root = join(dir, "edited-config");
    mkdirSync(root);
    const env = { XDG_CACHE_HOME: join(dir, "cache-edits") };
    const config = join(root, "yolo.config.ts");
    const graph = async (name: string) => (await modulesLoadedBy(["graph"], name, root, env)).r;
    for (const [i, approve] of [["pm"], ["pm"], ["architect"], ["pm"]].entries()) {
      writeFileSync(config, `import { defineConfig } from "yolo";\nexport default defineConfig({ approve: ${JSON.stringify(approve)} });\n`);
      // Each edit is the user's, trusted before it runs (config-trust.ts); the first is the project's first sight.
      if (i > 0) expect((await runYolo(["config", "trust"], { cwd: root, env })).exitCode).toBe(0);
      const r = await graph(`edit-${i}`);
      expect(r.exitCode, describeResult(r)).toBe(0);
      expect(r.stdout).toContain(`-.->|"rejected"| ${approve[0]};`);
      expect(r.stdout).not.toContain(`-.->|"rejected"| ${approve[0] === "pm" ? "architect" : "pm"};`);
    }
    writeFileSync(config, 'export default { approve: ["pm"], maxFixAttempts: -1 };\n');
    expect((await runYolo(["config", "trust"], { cwd: root, env })).exitCode).toBe(0);
    const invalid = await graph("edit-invalid");
    expect(invalid.exitCode, describeResult(invalid)).toBe(2);
    // zod's own words, in English (the build keeps only its English messages).
    expect(invalid.stderr).toContain("maxFixAttempts: Too small: expected number to be >=0");
    // Transpiled and validated results live in the user's cache directory, never in the repository.
    expect(readdirSync(root)).toEqual(["yolo.config.ts"]);
    // (`code`: the light CLI's V8 code cache, see tests/e2e/light-cli.test.ts.)
    expect(readdirSync(join(dir, "cache-edits", "yolo")).sort()).toEqual(["code", "validated"]);
  });

  it("--no-tui on a terminal prints plain lines and loads neither Ink nor React", async (ctx) => {
    requireTool(ctx, "script", "a pseudo-terminal for yolo");
    const { r, stdout, ink } = await runLoading("no-tui", ["--no-tui"], true);
    expect(r.exitCode, stdout).toBe(0);
    expect(stdout).toMatch(/^\d\d:\d\d:\d\d ▶ analyst/m);
    expect(stdout).not.toContain("\x1b[");
    expect(ink).toBe(false);
  });

  it("--tui draws the live view even into a pipe, loading Ink", async () => {
    const { r, stdout, ink } = await runLoading("tui", ["--tui"]);
    expect(r.exitCode, stdout).toBe(0);
    expect(stdout).toContain("passed (exit 0)");
    expect(stdout).toMatch(/✓ tea\s+verdict PASS/);
    expect(ink).toBe(true);
  });
});

describe.each(BACKENDS)("`yolo show` and `yolo history` read a thread's checkpoints without LangGraph on SQLite (%s)", (backend) => {
  const db = useTestDatabase(backend);
  // What show and history never need on SQLite: the checkpoint reader stands in for LangGraph, and the history's
  // summaries come from the roles' light history lines (no zod schemas, no YAML).
  const READING_NEVER = /^(@langchain\/.*|ink|react|react-reconciler|jiti|zod|yaml|src\/(agents|llm))$/;

  it("a finished thread: show and history answer; on PostgreSQL they ask LangGraph (the control)", async ({ onTestFinished }) => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    onTestFinished(async () => {
      await mock.close();
      project.cleanup();
    });
    const run = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: project.root, baseURL: mock.url, env: db.env() });
    expect(run.exitCode, describeResult(run)).toBe(0);
    const thread = JSON.parse(run.stdout.split("\n")[0]).thread as string;
    const register = pathToFileURL(join(dir, "register.mjs")).href;
    for (const command of ["show", "history"]) {
      const log = join(dir, `${backend}-${command}.log`);
      writeFileSync(log, "");
      const r = await runYolo([command, thread], { cwd: project.root, nodeArgs: ["--import", register], env: { ...db.env(), YOLO_TEST_MODULE_LOG: log } });
      expect(r.exitCode, describeResult(r)).toBe(0);
      expect(r.stdout).toMatch(command === "show" ? /^Thread \w+ — passed/ : /^5\s+tea\s+.*-\s+verdict PASS, gates 1\/1 passed$/m);
      const modules = readFileSync(log, "utf8").split("\n").filter(Boolean);
      // On SQLite the light CLI answers; on PostgreSQL it hands the command to the full CLI, which asks LangGraph.
      expect(answeredLight(modules), command).toBe(backend === "sqlite");
      expect(modules.some((m) => m.endsWith("/dist/cli/main.js"))).toBe(backend !== "sqlite");
      const loaded = [...loadedPackages(modules)].filter((p) => READING_NEVER.test(p));
      if (backend === "sqlite") expect(loaded, command).toEqual([]);
      else expect(loaded, command).toContain("@langchain/langgraph");
    }
  });
});

describe("a new thread says run.started before LangGraph, LangChain, the model client, Ink or React is even resolved", () => {
  // The module log of the hook above, with a line written at the moment the first byte reaches stdout: every
  // module resolved before it was needed to say run.started; a module resolved after it was not evaluated before it.
  const MARK = "FIRST-STDOUT-WRITE";
  const REGISTER_MARKED = `${REGISTER}import { appendFileSync as appendMark } from "node:fs";
const write = process.stdout.write.bind(process.stdout);
let marked = false;
process.stdout.write = (...args) => {
  if (!marked) { marked = true; appendMark(process.env.YOLO_TEST_MODULE_LOG, "${MARK}\\n"); }
  return write(...args);
};
`;
  // What a run's start must not need: LangGraph and LangChain (checkpointer included), the model client, the live
  // view, the logger, the subprocess library of the tools.
  const BEFORE_START_NEVER = /^(@langchain\/.*|openai|ink|react|react-reconciler|pino|execa|@modelcontextprotocol\/.*)$/;

  async function firstEventModules(name: string, args: string[]) {
    const root = makeProject().root;
    const mock = await startMockOpenAI(() => ({ status: 401, body: { error: { message: "bad key" } } }));
    onTestFinished(async () => {
      await mock.close();
      rmSync(root, { recursive: true, force: true });
    });
    writeFileSync(join(dir, "register-marked.mjs"), REGISTER_MARKED);
    const log = join(dir, `${name}.log`);
    writeFileSync(log, "");
    const r = await runYolo(args, {
      cwd: root,
      baseURL: mock.url,
      nodeArgs: ["--import", pathToFileURL(join(dir, "register-marked.mjs")).href],
      env: { YOLO_TEST_MODULE_LOG: log, OPENAI_API_KEY: "sk-wrong-key-0000" },
    });
    const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
    const at = lines.indexOf(MARK);
    return { r, at, before: loadedPackages(lines.slice(0, Math.max(at, 0))), after: loadedPackages(lines.slice(at + 1)) };
  }

  it.each([
    ["run", ["run", "--json", "Add an add(a, b) function"]],
    ["agent", ["agent", "--json", "dev", "Add an add(a, b) function"]],
    ["chat", ["chat", "--json", "What does this project do?"]],
  ])("`yolo %s --json`: the first stdout line is run.started, and nothing heavy was resolved before it", async (name, args) => {
    const { r, at, before, after } = await firstEventModules(`first-event-${name}`, args);
    // The run really started, then failed at the model (exit 5, after the event): the engine was loaded after all.
    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(JSON.parse(r.stdout.split("\n")[0])).toMatchObject({ type: "run.started", resumed: false });
    expect(at).toBeGreaterThan(0);
    // The light path really ran through the CLI and opened the thread index before the event…
    expect(before.has("src/cli")).toBe(true);
    expect(before.has("src/store")).toBe(true);
    expect([...before].filter((p) => BEFORE_START_NEVER.test(p))).toEqual([]);
    // …and the hook does see the heavy modules: they come right after it (a control for the absence above).
    expect(after.has("@langchain/langgraph")).toBe(true);
    expect(after.has("@langchain/openai")).toBe(true);
  });

  // A resume's run, with the module log marked at its first stdout write: what was resolved before and after it.
  async function resumeModules(name: string, args: string[], root: string, env: Record<string, string>, baseURL: string) {
    writeFileSync(join(dir, "register-marked.mjs"), REGISTER_MARKED);
    const log = join(dir, `${name}.log`);
    writeFileSync(log, "");
    const r = await runYolo(args, {
      cwd: root,
      baseURL,
      nodeArgs: ["--import", pathToFileURL(join(dir, "register-marked.mjs")).href],
      env: { ...env, YOLO_TEST_MODULE_LOG: log },
    });
    const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
    const at = lines.indexOf(MARK);
    return { r, at, before: loadedPackages(lines.slice(0, Math.max(at, 0))), after: loadedPackages(lines.slice(at + 1)) };
  }
  // What a resume's run.started never needs on SQLite when the checkpoint reader reads the thread.
  const RESUME_BEFORE_NEVER = /^(@langchain\/.*|openai|pino|ink|react|react-reconciler|@modelcontextprotocol\/.*)$/;

  describe.each(BACKENDS)("`yolo resume --json` (%s)", (backend) => {
    const db = useTestDatabase(backend);

    it("--answer: on SQLite the checkpoint reader says run.started before LangGraph is resolved; on PostgreSQL LangGraph reads first (the control)", async () => {
      const project = makeProject();
      const mock = await startMockOpenAI(
        director({
          analyst: [handoff({ escalate_to_human: true, question: "Integers?" }), analystDone],
          pm: [pmDone(false)],
          dev: devWrites(GOOD_ADD),
          tea: [teaSays("PASS")],
        }),
      );
      onTestFinished(async () => {
        await mock.close();
        project.cleanup();
      });
      const first = await runYolo(["run", "--json", "Add an add(a, b) function"], { cwd: project.root, baseURL: mock.url, env: db.env() });
      expect(first.exitCode, describeResult(first)).toBe(3);
      const thread = JSON.parse(first.stdout.split("\n")[0]).thread as string;
      // Without its answer the thread only repeats its question: on SQLite LangGraph is never loaded at all.
      const asked = await resumeModules(`resume-question-again-${backend}`, ["resume", "--json", thread], project.root, db.env(), mock.url);
      expect(asked.r.exitCode, describeResult(asked.r)).toBe(3);
      expect(
        asked.r.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line).type),
      ).toEqual(["interrupt", "run.completed"]);
      const everything = new Set([...asked.before, ...asked.after]);
      expect(everything.has("src/cli")).toBe(true);
      if (backend === "sqlite") expect([...everything].filter((p) => /^@langchain\/.*$/.test(p))).toEqual([]);
      else expect(everything.has("@langchain/langgraph")).toBe(true);
      const { r, at, before, after } = await resumeModules(
        `first-event-resume-${backend}`,
        ["resume", "--json", thread, "--answer", "yes"],
        project.root,
        db.env(),
        mock.url,
      );
      expect(r.exitCode, describeResult(r)).toBe(0);
      const events = r.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      // What run.started states of the thread so far is read from its checkpoint either way.
      expect(events[0]).toMatchObject({ type: "run.started", resumed: true, ran: ["analyst"], usageSoFar: { calls: 1 } });
      expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "passed" });
      expect(at).toBeGreaterThan(0);
      expect(before.has("src/store")).toBe(true);
      expect([...before].filter((p) => /^(openai|@langchain\/openai|pino|ink|react|@modelcontextprotocol\/.*)$/.test(p))).toEqual([]);
      if (backend === "sqlite") expect([...before].filter((p) => RESUME_BEFORE_NEVER.test(p))).toEqual([]);
      else expect(before.has("@langchain/langgraph")).toBe(true);
      // The hook does see LangGraph and the model client: they come after the event (the control for the absence above).
      if (backend === "sqlite") expect(after.has("@langchain/langgraph")).toBe(true);
      expect(after.has("@langchain/openai")).toBe(true);
    });
  });

  // On SQLite only: the same kill and resume on PostgreSQL, and its usage counted once, is resume-after-kill's case;
  // what this file adds is which modules the settling loads before run.started.
  describe("`yolo resume --json` after a kill (sqlite)", () => {
    const db = useTestDatabase("sqlite");
    const backend = "sqlite";

    it("usage a killed process left unsettled: settled through LangGraph first, counted once, and run.started states it", async () => {
      const project = makeProject();
      const held = deferred();
      const mock = await startMockOpenAI(
        director({
          analyst: [analystDone],
          pm: [pmDone(false)],
          // dev's first call is answered (and paid for); the second is held open until after the kill.
          dev: [call("list_files", {}), { ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise }, ...devWrites(GOOD_ADD)],
          tea: [teaSays("PASS")],
        }),
      );
      onTestFinished(async () => {
        held.release();
        await mock.close();
        project.cleanup();
      });
      const child = spawnYolo(["run", "--json", "Add an add(a, b) function"], { cwd: project.root, baseURL: mock.url, env: db.env() });
      await waitFor(() => rolesOf(mock).filter((role) => role === "dev").length === 2, "dev's second request to reach the mock");
      child.kill("SIGKILL");
      const killed = await child;
      held.release();
      const thread = threadIdFrom(String(killed.stdout));
      // The row holds what dev paid for before the kill: the resume must settle it before it reads the thread.
      const listed = await runYolo(["show", "--json", thread], { cwd: project.root, env: db.env() });
      expect(JSON.parse(listed.stdout).thread.unsettledUsage, describeResult(listed)).not.toBeNull();
      const paidAtKill = mock.requests.length - 1;

      const { r, at, before } = await resumeModules(`resume-unsettled-${backend}`, ["resume", "--json", thread], project.root, db.env(), mock.url);
      expect(r.exitCode, describeResult(r)).toBe(0);
      expect(at).toBeGreaterThan(0);
      // Settling writes through LangGraph's checkpointer, so LangGraph is loaded before the event.
      expect(before.has("@langchain/langgraph")).toBe(true);
      const events = r.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line));
      // run.started already counts the killed dev's paid call, as it did before the reader existed.
      expect(events[0]).toMatchObject({ type: "run.started", resumed: true, usageSoFar: { calls: paidAtKill } });
      const show = await runYolo(["show", "--json", thread], { cwd: project.root, env: db.env() });
      const { state, thread: row } = JSON.parse(show.stdout);
      // Every request the model answered is counted once: all but the one held open when the process died.
      expect(state.usage.calls).toBe(mock.requests.length - 1);
      expect(state.usageByNode.dev.calls).toBe(3);
      expect(row.unsettledUsage).toBeNull();
    });
  });
});
