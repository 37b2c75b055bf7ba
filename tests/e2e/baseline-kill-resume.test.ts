import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { readThread } from "../helpers/engine.js";
import { mockWith, project } from "../helpers/per-test.js";

// The gate's first command notes each run in probe.log and, while `hold` exists, waits: the test kills yolo
// with SIGKILL while the baseline's gate is running, at a known point, without timing anything.
const PROBE = `import { appendFileSync, existsSync } from "node:fs";
appendFileSync("probe.log", "run\\n");
while (existsSync("hold")) await new Promise((r) => setTimeout(r, 50));
`;

describe("kill -9 during the gate baseline", { timeout: 120_000 }, () => {
  it("the resume takes the baseline again, records it once, and the run finishes (exit 0)", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, {
      "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node probe.mjs && node --test test/" } }),
      "probe.mjs": PROBE,
      hold: "",
    });
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const child = spawnYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: root, baseURL: mock.url });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    await waitFor(() => existsSync(join(root, "probe.log")), "the baseline's gate to start");
    expect(out).toContain('"baseline":true');
    child.kill("SIGKILL");
    await child;
    rmSync(join(root, "hold"));
    expect(mock.requests).toHaveLength(0);
    const thread = threadIdFrom(out);

    const resumed = await runYolo(["resume", thread, "--json"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const events = parseEvents(resumed.stdout);
    const baselines = events.filter((e) => e.type === "gate.result" && e.gate.baseline);
    expect(baselines).toHaveLength(1);
    expect(baselines[0].type === "gate.result" && baselines[0].gate).toMatchObject({ passed: false, attempt: 0 });
    // The gate ran for the killed baseline, the resumed baseline, and tea's check.
    expect(readFileSync(join(root, "probe.log"), "utf8").trim().split("\n")).toHaveLength(3);
    const { values } = await readThread(root, thread);
    expect(values.gateBaseline?.file).toMatch(/gate-baseline\.json$/);
    expect(existsSync(values.gateBaseline!.file!)).toBe(true);
    const judged = events.filter((e) => e.type === "gate.result" && !e.gate.baseline);
    expect(judged.map((e) => e.type === "gate.result" && e.gate.blocking)).toEqual([false]);
  });
});
