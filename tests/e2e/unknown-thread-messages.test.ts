import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/config/resolve.js";
import { openSession } from "../../src/engine/session.js";
import { describeResult, runYolo } from "../helpers/cli.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach();

const COMMANDS = [["show"], ["report"], ["history"], ["resume"]];

describe("show, report, history and resume say the same about an unknown thread id", () => {
  it("without a database, then with one that lacks the thread: exit 2, one message each time", async () => {
    const project = makeProject();
    cleanups.push(project.cleanup);
    for (const cmd of COMMANDS) {
      const r = await runYolo([...cmd, "nosuch"], { cwd: project.root, baseURL: "http://127.0.0.1:9/v1" });
      expect(r.exitCode, describeResult(r)).toBe(2);
      expect(r.stderr, cmd[0]).toBe(
        `yolo: No thread nosuch: this project has no yolo database yet (${join(project.root, ".yolo/yolo.db")}). Start a run with: yolo run "what to build"\n`,
      );
    }
    await (await openSession(resolveConfig({ root: project.root, fileConfig: {}, file: null, env: {} }))).close();
    for (const cmd of COMMANDS) {
      const r = await runYolo([...cmd, "nosuch"], { cwd: project.root, baseURL: "http://127.0.0.1:9/v1" });
      expect(r.exitCode, describeResult(r)).toBe(2);
      expect(r.stderr, cmd[0]).toBe("yolo: No thread nosuch in this project. List threads with `yolo threads`.\n");
    }
  });
});
