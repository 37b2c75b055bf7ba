import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { readThread } from "../helpers/engine.js";
import { mockWith, project } from "../helpers/per-test.js";

// The gate's first command notes each run in probe.log and, while `hold` exists, waits: the test kills yolo
// with SIGKILL while the baseline's gate is running, at a known point, without timing anything.
const PROBE = `import { appendFileSync, existsSync } from "node:fs";
appendFileSync("probe.log", "run\\n");
while (existsSync("hold")) await new Promise((r) => setTimeout(r, 50));
`;

// Polls an async check (the thread's checkpoint, read from SQLite while the run writes it).
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("kill -9 during the gate baseline", { timeout: 150_000 }, () => {
  it("analyst and pm think while it runs, dev waits for it; the resume takes it again, once, and the run finishes (exit 0)", async ({
    expect,
    onTestFinished,
  }) => {
    const root = project(onTestFinished, {
      "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "node probe.mjs && node --test test/" } }),
      "probe.mjs": PROBE,
      // The probe's notes are not the project's files: a gate whose commands change the project's files blocks.
      ".gitignore": "probe.log\nhold\n",
      hold: "",
    });
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const child = spawnYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: root, baseURL: mock.url });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    await waitFor(() => existsSync(join(root, "probe.log")), "the baseline's gate to start");
    await waitFor(() => /"type":"run\.started"/.test(out), "run.started");
    const thread = threadIdFrom(out);
    // The planning agents ran (and were checkpointed) while the baseline's gate was still held.
    await until(async () => (await readThread(root, thread)).values.visits?.pm === 1, "pm's checkpoint");
    expect(rolesOf(mock)).toEqual(["analyst", "pm"]);
    const before = parseEvents(out);
    expect(before.some((e) => e.type === "gate.result")).toBe(false);
    expect(before.some((e) => e.type === "node.started" && e.node === "dev")).toBe(false);
    child.kill("SIGKILL");
    await child;
    rmSync(join(root, "hold"));

    const resumed = await runYolo(["resume", thread, "--json"], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const events = parseEvents(resumed.stdout);
    const baselines = events.filter((e) => e.type === "gate.result" && e.gate.baseline);
    expect(baselines).toHaveLength(1);
    expect(baselines[0].type === "gate.result" && baselines[0].gate).toMatchObject({ passed: false, attempt: 0 });
    // The baseline's result came before dev started: dev waited for it.
    const devStarted = events.findIndex((e) => e.type === "node.started" && e.node === "dev");
    expect(events.indexOf(baselines[0])).toBeLessThan(devStarted);
    // The gate ran for the killed baseline, the resumed baseline, and tea's check.
    expect(readFileSync(join(root, "probe.log"), "utf8").trim().split("\n")).toHaveLength(3);
    const { values } = await readThread(root, thread);
    expect(values.gateBaseline?.file).toMatch(/gate-baseline\.jsonl$/);
    expect(existsSync(values.gateBaseline!.file!)).toBe(true);
    const judged = events.filter((e) => e.type === "gate.result" && !e.gate.baseline);
    expect(judged.map((e) => e.type === "gate.result" && e.gate.blocking)).toEqual([false]);
  });
});
