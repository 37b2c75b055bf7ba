import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { mockWith, project, tempDir } from "../helpers/per-test.js";

// Gate detection (each ecosystem's manifests looked for, the gate programs found on PATH) is not needed to say
// `run.started`: the gates are first used by the baseline, after it. A run with `requireGate` is refused without a
// gate before any event, so there detection comes first.

// Preloaded into the child: logs, in order, the first write to stdout and every look for a Go manifest (one of the
// detectors' first questions), to a file named by the environment.
const WATCH = `import fs, { appendFileSync } from "node:fs";
const log = process.env.YOLO_TEST_ORDER_LOG;
const statSync = fs.statSync;
fs.statSync = function (file, ...rest) {
  if (typeof file === "string" && /[\\\\/]go\\.(mod|work)$/.test(file)) appendFileSync(log, "detect\\n");
  return statSync.call(this, file, ...rest);
};
const write = process.stdout.write;
let first = true;
process.stdout.write = function (...args) {
  if (first) appendFileSync(log, "stdout\\n");
  first = false;
  return write.apply(this, args);
};
`;

async function orderOf(onTestFinished: Parameters<typeof project>[0], files: Record<string, string>, command: string[]) {
  const root = project(onTestFinished, files);
  const dir = tempDir(onTestFinished);
  writeFileSync(join(dir, "watch.mjs"), WATCH);
  const log = join(dir, "order.log");
  writeFileSync(log, "");
  // The model refuses the key: the run starts, loads its engine (which finds the gates) and ends (exit 5).
  const mock = await mockWith(onTestFinished, () => ({ status: 401, body: { error: { message: "bad key" } } }));
  const r = await runYolo(command, {
    cwd: root,
    baseURL: mock.url,
    nodeArgs: ["--import", pathToFileURL(join(dir, "watch.mjs")).href],
    env: { YOLO_TEST_ORDER_LOG: log },
  });
  return { r, order: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

describe.concurrent("gate detection waits until run.started is out", () => {
  it("a run says run.started before it looks for the project's gates, and still finds them before the model call", async ({ onTestFinished }) => {
    const { r, order } = await orderOf(onTestFinished, {}, ["run", "--json", "Add an add(a, b) function"]);
    expect(r.exitCode, describeResult(r)).toBe(5);
    expect(parseEvents(r.stdout)[0]).toMatchObject({ type: "run.started" });
    expect(order[0]).toBe("stdout");
    expect(order).toContain("detect");
  });

  it("with requireGate the gates are found first: a run without one is refused before any event", async ({ onTestFinished }) => {
    const files = { "package.json": JSON.stringify({ name: "demo", version: "1.0.0" }), "yolo.config.ts": "export default { requireGate: true };\n" };
    const { r, order } = await orderOf(onTestFinished, files, ["run", "--json", "Add an add(a, b) function"]);
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toMatch(/No gate: .*requireGate/);
    expect(order).toContain("detect");
    expect(order).not.toContain("stdout");
  });
});
