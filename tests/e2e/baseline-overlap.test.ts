import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, spawnYolo, waitFor } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { closedPort } from "../helpers/closed-port.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";

// The test suite notes its pid in suite.pid, then waits while `hold` exists (or, with `wait-release`, until `release`
// exists) and notes `done`: what it wrote says whether it started, and whether it ever finished.
const SUITE = `import { appendFileSync, existsSync, writeFileSync } from "node:fs";
appendFileSync("suite.pid", process.pid + "\\n");
const waitFor = existsSync("wait-release") ? () => !existsSync("release") : () => existsSync("hold");
while (waitFor()) await new Promise((r) => setTimeout(r, 50));
writeFileSync("done", "");
`;

const files = (test: string, extra: Record<string, string> = {}) => ({
  "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test } }),
  "suite.mjs": SUITE,
  // The suite's own notes are not the project's files: a gate whose commands change the project's files blocks.
  ".gitignore": "suite.pid\ndone\nrelease\nhold\n",
  ...extra,
});

// The processes working in `root` (the suite's pid is its sandbox's own, so the host's /proc is asked by folder).
function processesIn(root: string): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readlinkSync(`/proc/${entry}/cwd`) === root ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

const pidsOf = (root: string) =>
  existsSync(join(root, "suite.pid")) ? readFileSync(join(root, "suite.pid"), "utf8").trim().split("\n").filter(Boolean).map(Number) : [];

const DOCS_WORKFLOW = (first: string) => `import { defineConfig } from "yolo";
export default defineConfig({ workflow: {
  nodes: {
    ${first === "analyst" ? 'analyst: { kind: "agent" },' : ""}
    route: { kind: "switch", cases: [{ route: "docs", when: "only documentation changes" }, { route: "code", when: "code changes" }] },
    writer: { kind: "agent", agent: "dev" },
    dev: { kind: "agent" },
    tea: { kind: "agent", gates: true },
  },
  edges: [
    { from: "start", to: "${first}" },
    ${first === "analyst" ? '{ from: "analyst", to: "route" },' : ""}
    { from: "route", to: "writer", case: "docs" },
    { from: "route", to: "dev", case: "code" },
    { from: "route", to: "dev", case: "default" },
    { from: "writer", to: "end" },
    { from: "dev", to: "tea" },
    { from: "tea", to: "end" },
  ],
} });
`;

describe("the gate baseline runs beside the thinking", { timeout: 240_000 }, () => {
  it("the first model requests arrive while the baseline's suite is still running; dev waits for it", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, files("node suite.mjs && node --test test/", { "wait-release": "" }));
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const child = spawnYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    // The suite finishes only once analyst and pm have asked the model: were the baseline before them, this would never happen.
    await waitFor(() => mock.requests.length >= 2, "analyst's and pm's model requests", 60_000);
    expect(existsSync(join(root, "done"))).toBe(false);
    expect(parseEvents(out).some((e) => e.type === "gate.result")).toBe(false);
    writeFileSync(join(root, "release"), "");
    const r = await child;
    expect(r.exitCode, out).toBe(0);
    const events = parseEvents(out);
    const baseline = events.findIndex((e) => e.type === "gate.result" && e.gate.baseline === true);
    const devStarted = events.findIndex((e) => e.type === "node.started" && e.node === "dev");
    const analystStarted = events.findIndex((e) => e.type === "node.started" && e.node === "analyst");
    expect(analystStarted).toBeLessThan(baseline);
    expect(baseline).toBeLessThan(devStarted);
    expect(rolesOf(mock)).toEqual(["analyst", "pm", "dev", "dev", "tea"]);
  });

  it("a switch whose first decision picks the docs path never runs the suite", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, files("node suite.mjs && node --test test/", { "yolo.config.ts": DOCS_WORKFLOW("route") }));
    const mock = await mockWith(onTestFinished, director({ route: [call("switch_decision", { case: "docs" })], dev: devWrites(GOOD_ADD) }));
    const r = await runYolo(["run", "--json", "Document add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(pidsOf(root)).toEqual([]);
    const events = parseEvents(r.stdout);
    expect(events.some((e) => e.type === "gate.started")).toBe(false);
    expect(events.flatMap((e) => (e.type === "node.started" ? [e.node] : []))).toEqual(["route", "writer"]);
  });

  it("a switch after a thinking agent that picks the docs path stops the running suite and says so", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, files("node suite.mjs && node --test test/", { "yolo.config.ts": DOCS_WORKFLOW("analyst"), hold: "" }));
    const mock = await mockWith(
      onTestFinished,
      director({
        // analyst answers once the suite has started beside it, so the switch after it has a running suite to stop.
        analyst: [
          async () => {
            await waitFor(() => existsSync(join(root, "suite.pid")), "the baseline's suite to start", 30_000);
            return analystDone;
          },
        ],
        route: [call("switch_decision", { case: "docs" })],
        dev: devWrites(GOOD_ADD),
      }),
    );
    const r = await runYolo(["run", "--json", "Document add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const events = parseEvents(r.stdout);
    const stopped = events.filter((e) => e.type === "warning" && /gate baseline was stopped/.test(e.message));
    expect(stopped).toHaveLength(1);
    expect(stopped[0].type === "warning" && stopped[0].message).toContain("(writer) that reaches no gate");
    // The suite started beside analyst, never finished, and is gone.
    expect(pidsOf(root)).toHaveLength(1);
    expect(existsSync(join(root, "done"))).toBe(false);
    await waitFor(() => processesIn(root).length === 0, "the stopped suite's processes to be gone", 10_000);
    expect(events.some((e) => e.type === "gate.result")).toBe(false);
  });
});

describe("a dead endpoint is said before the suite finishes", { timeout: 240_000 }, () => {
  for (const [what, config] of [
    ["the default pipeline (analyst's call fails beside the suite)", null],
    ["a workflow whose first node writes (the endpoint is checked before waiting for the suite)", "dev-first"],
  ] as const) {
    it(what, async ({ expect, onTestFinished }) => {
      const devFirst = `import { defineConfig } from "yolo";
export default defineConfig({ workflow: { nodes: { dev: { kind: "agent" }, tea: { kind: "agent", gates: true } },
  edges: [{ from: "start", to: "dev" }, { from: "dev", to: "tea" }, { from: "tea", to: "end" }] } });
`;
      const root = project(onTestFinished, files("node suite.mjs && node --test test/", { hold: "", ...(config ? { "yolo.config.ts": devFirst } : {}) }));
      const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: `http://127.0.0.1:${await closedPort()}/v1` });
      expect(r.exitCode, describeResult(r)).toBe(5);
      expect(r.stderr).toMatch(/Could not connect to the model provider at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/);
      // The suite (held until the test ends) never finished, and yolo left none of it running.
      expect(existsSync(join(root, "done"))).toBe(false);
      await waitFor(() => processesIn(root).length === 0, "the stopped suite's processes to be gone", 10_000);
      expect(parseEvents(r.stdout).some((e) => e.type === "gate.result")).toBe(false);
    });
  }
});

describe("an unknown model is said before the suite finishes", { timeout: 240_000 }, () => {
  it("a workflow whose first node writes: GET /models lists other models and a request naming it is refused (404): the run ends naming them", async ({
    expect,
    onTestFinished,
  }) => {
    const devFirst = `import { defineConfig } from "yolo";
export default defineConfig({ workflow: { nodes: { dev: { kind: "agent" }, tea: { kind: "agent", gates: true } },
  edges: [{ from: "start", to: "dev" }, { from: "dev", to: "tea" }, { from: "tea", to: "end" }] } });
`;
    const mock = await startMockOpenAI([{ status: 404 }], { models: ["llama3:latest", "qwen2.5-coder:7b"] });
    onTestFinished(() => mock.close());
    const root = project(onTestFinished, files("node suite.mjs && node --test test/", { hold: "", "yolo.config.ts": devFirst }));
    const r = await runYolo(["run", "--json", "Add add()"], { cwd: root, baseURL: mock.url, env: { YOLO_MODEL: "qwen-typo" } });
    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(r.stderr).toContain('Model "qwen-typo" was not found at');
    expect(r.stderr).toContain('GET /models lists 2 models, not "qwen-typo": llama3:latest, qwen2.5-coder:7b');
    expect(r.stderr).toContain("a request naming it was refused (HTTP 404");
    // The one request is the early one naming the model: no agent ever ran.
    expect(mock.requests.map((q) => q.model)).toEqual(["qwen-typo"]);
    expect(existsSync(join(root, "done"))).toBe(false);
    await waitFor(() => processesIn(root).length === 0, "the stopped suite's processes to be gone", 10_000);
    expect(parseEvents(r.stdout).some((e) => e.type === "gate.result")).toBe(false);
  });
});
