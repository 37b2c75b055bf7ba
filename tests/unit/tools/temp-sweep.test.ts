import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { sweepInterruptedWrites } from "../../../src/tools/temp-sweep.js";
import { tempDir } from "../../helpers/per-test.js";

function tree(files: string[]): string {
  const root = tempDir(onTestFinished, "yolo-sweep-");
  for (const f of files) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), "x");
  }
  return root;
}

// The pid of a process that has exited (pids are not reused this quickly).
const deadPid = () => spawnSync(process.execPath, ["-e", "0"]).pid!;

describe("sweepInterruptedWrites", () => {
  it("removes the temp files of a killed writer and nothing else", async () => {
    const dead = deadPid();
    const orphan = `src/.add.js.yolo-tmp-${dead}-0a1b2c3d`;
    const live = `src/.sub.js.yolo-tmp-${process.pid}-0a1b2c3d`;
    const root = tree([
      "src/add.js",
      orphan,
      live,
      `deep/er/.x.ts.yolo-tmp-${dead}-ffff0000`,
      `node_modules/p/.i.js.yolo-tmp-${dead}-ffff0000`,
      `.yolo/threads/.t.yolo-tmp-${dead}-ffff0000`,
      "notes.yolo-tmp-1-abc",
      `.looks.yolo-tmp-${dead}-nothex!`,
    ]);
    const removed = await sweepInterruptedWrites(root);
    expect(removed.sort()).toEqual([`deep/er/.x.ts.yolo-tmp-${dead}-ffff0000`, orphan].sort());
    expect(existsSync(join(root, "src/add.js"))).toBe(true);
    expect(existsSync(join(root, live))).toBe(true);
    expect(existsSync(join(root, `node_modules/p/.i.js.yolo-tmp-${dead}-ffff0000`))).toBe(true);
    expect(existsSync(join(root, "notes.yolo-tmp-1-abc"))).toBe(true);
  });

  it("skips the folders it is told to (the artifacts folder)", async () => {
    const dead = deadPid();
    const root = tree([`artifacts/.log.yolo-tmp-${dead}-00000000`]);
    expect(await sweepInterruptedWrites(root, [join(root, "artifacts")])).toEqual([]);
  });
});
