import { readdirSync, readFileSync } from "node:fs";
import { describe, it } from "vitest";
import { spawnYolo, waitFor } from "../helpers/cli.js";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { mockWith, project } from "../helpers/per-test.js";
import { eventually, groupMembers, isRunning } from "../helpers/process-groups.js";

// The gate notes each run in gates.log; its second run (tea's check, after the baseline) then sleeps, so the test kills
// yolo while a gate is known to be running. The sleep is found from outside (the gate may run in bubblewrap's own pid
// namespace) by its unusual length.
const SLEEP = "4321.5";
const GATE = `echo run >> gates.log
if [ "$(wc -l < gates.log)" -ge 2 ]; then sleep ${SLEEP}; fi
`;

function stat(pid: number): { ppid: number; pgrp: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return { ppid: Number(fields[1]), pgrp: Number(fields[2]) };
}

// The gate's sleep, as this (the host's) pid namespace sees it.
function findSleep(): number | undefined {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8") === `sleep\0${SLEEP}\0`) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

function ancestors(pid: number): number[] {
  const chain: number[] = [];
  for (let p = stat(pid).ppid; p > 1; p = stat(p).ppid) chain.push(p);
  return chain;
}

// Without the sandbox the gate's group would outlive yolo but for the helper; in bubblewrap (--die-with-parent) it goes
// with the helper as well.
describe.each(["off", "auto"])("yolo killed with SIGKILL while a gate runs (sandbox %s)", { timeout: 240_000 }, (sandbox) => {
  it("leaves no process of the gate behind: the spawner helper kills its group and exits", async ({ expect, onTestFinished }) => {
    const root = project(onTestFinished, {
      "package.json": JSON.stringify({ name: "demo", type: "module", scripts: { test: "sh gate.sh" } }),
      "gate.sh": GATE,
    });
    // dev's first command gives the helper (started by the baseline's gate, which is spawned directly) time to boot.
    const dev = [call("run_command", { command: "sleep 1" }), ...devWrites(GOOD_ADD)];
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev, tea: [teaSays("PASS")] }));
    const child = spawnYolo(["run", "--json", "Add an add(a, b) function to src/add.js"], { cwd: root, baseURL: mock.url, env: { YOLO_SANDBOX: sandbox } });
    let out = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    let sleep: number | undefined;
    await waitFor(() => (sleep = findSleep()) !== undefined, "the gate's sleep to start");
    const group = stat(sleep as number).pgrp;
    onTestFinished(() => {
      for (const pid of groupMembers(group)) process.kill(pid, "SIGKILL");
    });
    const chain = ancestors(sleep as number);
    expect(chain, "yolo is an ancestor of its gate").toContain(child.pid);
    // The process between yolo and the gate's group is the spawner helper, not the gate's own shell.
    const helper = chain[chain.indexOf(child.pid as number) - 1];
    expect(readFileSync(`/proc/${helper}/cmdline`, "utf8"), "the gate was started by yolo itself, not by the spawner helper").toContain("spawner-child.cjs");
    expect(groupMembers(group).length).toBeGreaterThan(0);

    child.kill("SIGKILL");
    await child;
    expect(await eventually(() => groupMembers(group).length === 0), `still running in the gate's group: ${groupMembers(group)}\n${out}`).toBe(true);
    expect(isRunning(sleep as number)).toBe(false);
    expect(await eventually(() => !isRunning(helper))).toBe(true);
  });
});
