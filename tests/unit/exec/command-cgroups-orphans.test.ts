import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { removeOrphans } from "../../../src/exec/command-cgroups.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// A pid that ran and is gone (reaped): the pid of a yolo killed with -9.
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  return child.pid as number;
}

it("removes the empty groups of yolo processes that are gone, and nothing else", () => {
  const parent = mkdtempSync(join(tmpdir(), "yolo-cg-"));
  dirs.push(parent);
  const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
  try {
    const dead = deadPid();
    const old = (Date.now() - 10 * 60_000) / 1000;
    const make = (name: string, age = old) => {
      const dir = join(parent, name);
      mkdirSync(dir);
      utimesSync(dir, age, age);
      return dir;
    };
    const orphan = make(`yolo-${dead}-3`);
    const running = make(`yolo-${live.pid}-1`);
    const mine = make(`yolo-${process.pid}-9`);
    const young = make(`yolo-${dead}-4`, Date.now() / 1000);
    const other = make("user.slice");
    // A group a process of the killed command still holds: the kernel refuses to remove it (here: not empty).
    const busy = make(`yolo-${dead}-5`);
    writeFileSync(join(busy, "cgroup.procs"), "1234\n");
    utimesSync(busy, old, old);

    expect(removeOrphans(parent)).toEqual([orphan]);
    expect(existsSync(orphan)).toBe(false);
    for (const kept of [running, mine, young, other, busy]) expect(existsSync(kept)).toBe(true);
  } finally {
    live.kill("SIGKILL");
  }
});

it("says nothing and removes nothing when the hierarchy cannot be read", () => {
  expect(removeOrphans(join(tmpdir(), "no-such-cgroup-hierarchy"))).toEqual([]);
});
