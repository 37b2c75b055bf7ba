import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

// yolo's own folder is yolo's: a committed `.yolo` link (or one inside it) is refused before anything is written
// through it, and a database removed or replaced during a run stops that run at its next checkpoint with an error, never exit 0
// "passed". Routes: 6.

const cleanups = cleanupsAfterEach();
const happy = () => director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] });

function outsideDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-elsewhere-")));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("yolo's own folder", { timeout: 240_000 }, () => {
  it("a committed .yolo link, and links to the database or the logs inside it, are refused: nothing is written through them", async () => {
    const elsewhere = outsideDir();
    const other = path.join(elsewhere, "other.sqlite");
    fs.writeFileSync(other, "another application's database\n");
    for (const plant of [
      (root: string) => fs.symlinkSync(elsewhere, path.join(root, ".yolo")),
      (root: string) => {
        fs.mkdirSync(path.join(root, ".yolo"));
        fs.symlinkSync(other, path.join(root, ".yolo", "yolo.db"));
      },
      (root: string) => {
        fs.mkdirSync(path.join(root, ".yolo"));
        fs.symlinkSync(elsewhere, path.join(root, ".yolo", "logs"));
      },
    ]) {
      const { root, cleanup } = makeProject();
      cleanups.push(cleanup);
      plant(root);
      const mock = await startMockOpenAI(happy());
      cleanups.push(() => mock.close());
      const r = await runYolo(["run", "--ci", "Add add()"], { cwd: root, baseURL: mock.url });
      expect(r.exitCode, describeResult(r)).not.toBe(0);
      expect(r.stderr).toMatch(/is a symbolic link \(to .*\); yolo keeps its state only in a real folder/);
      expect(mock.requests).toHaveLength(0);
      expect(fs.readdirSync(elsewhere)).toEqual(["other.sqlite"]);
      expect(fs.readFileSync(other, "utf8")).toBe("another application's database\n");
      // A read-only command writes nothing through it either.
      await runYolo(["threads"], { cwd: root });
      expect(fs.readdirSync(elsewhere)).toEqual(["other.sqlite"]);
    }
  });

  it("the database removed or replaced early in a run: the run stops at its next checkpoint, no later agent runs", async () => {
    const routes: [string, (root: string) => void, RegExp][] = [
      ["rm -rf .yolo", (root) => execFileSync("rm", ["-rf", path.join(root, ".yolo")]), /was removed while the run was going on/],
      [
        "a copy moved over yolo.db",
        (root) => {
          const db = path.join(root, ".yolo", "yolo.db");
          fs.copyFileSync(db, `${db}.copy`);
          fs.renameSync(`${db}.copy`, db);
        },
        /was replaced while the run was going on/,
      ],
    ];
    for (const [name, act, said] of routes) {
      const { root, cleanup } = makeProject();
      cleanups.push(cleanup);
      const dir = director({
        analyst: [
          () => {
            act(root);
            return analystDone;
          },
        ],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      });
      const mock = await startMockOpenAI(dir);
      cleanups.push(() => mock.close());
      const r = await runYolo(["run", "--ci", "Add add()"], { cwd: root, baseURL: mock.url });
      expect(r.exitCode, `${name}: ${describeResult(r)}`).not.toBe(0);
      expect(r.stdout + r.stderr, name).toMatch(said);
      // Stopped at the analyst's checkpoint: pm, dev and tea never ran, nothing was written into the project.
      expect(dir.served, name).toEqual(["analyst"]);
      expect(fs.existsSync(path.join(root, "src", "add.js")), name).toBe(false);
    }
  });

  it("rm -rf .yolo during a run: the run ends with a storage error, not passed", async () => {
    const { root, cleanup } = makeProject();
    cleanups.push(cleanup);
    const dir = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: devWrites(GOOD_ADD),
      tea: [
        () => {
          execFileSync("rm", ["-rf", path.join(root, ".yolo")]);
          return teaSays("PASS");
        },
      ],
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(() => mock.close());
    const r = await runYolo(["run", "--ci", "Add add()"], { cwd: root, baseURL: mock.url });
    expect(r.exitCode, describeResult(r)).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/was removed while the run was going on/);
    expect(r.stdout + r.stderr).not.toMatch(/passed \(exit 0\)/);
  });
});
