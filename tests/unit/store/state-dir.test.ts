import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ThreadError, YoloError } from "../../../src/errors.js";
import { appendTranscript } from "../../../src/store/artifacts.js";
import { ensureStateDir, threadDir } from "../../../src/store/state-dir.js";
import { tempDir } from "../../helpers/per-test.js";

let root: string;
beforeEach(({ onTestFinished }) => {
  root = tempDir(onTestFinished, "yolo-state-dir-");
});

describe("ensureStateDir", () => {
  it("creates .yolo with logs/, threads/ and a .gitignore that hides it from git", () => {
    execFileSync("git", ["init", "-q"], { cwd: root });
    const dir = ensureStateDir(root);
    expect(dir).toBe(join(root, ".yolo"));
    expect(statSync(join(dir, "logs")).isDirectory()).toBe(true);
    expect(statSync(join(dir, "threads")).isDirectory()).toBe(true);
    appendTranscript(threadDir(root, "abc12345"), "dev", { role: "assistant", text: "hi" });
    writeFileSync(join(dir, "yolo.db"), "x");
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" })).toBe("");
  });

  it("keeps a .gitignore the user already wrote", () => {
    ensureStateDir(root);
    writeFileSync(join(root, ".yolo", ".gitignore"), "*.db\n");
    ensureStateDir(root);
    expect(readFileSync(join(root, ".yolo", ".gitignore"), "utf8")).toBe("*.db\n");
  });

  it("reports a location it cannot create as a storage error naming the path", () => {
    const notADir = join(root, "file");
    writeFileSync(notADir, "");
    try {
      ensureStateDir(notADir);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(YoloError);
      expect((error as YoloError).code).toBe("storage");
      expect((error as YoloError).message).toContain(join(notADir, ".yolo"));
    }
  });
});

describe("threadDir", () => {
  it("creates the thread's folder on demand", () => {
    const dir = threadDir(root, "abc12345");
    expect(dir).toBe(join(root, ".yolo", "threads", "abc12345"));
    expect(existsSync(dir)).toBe(true);
  });

  it("refuses ids that would leave the threads folder", () => {
    expect(() => threadDir(root, "../escape")).toThrow(ThreadError);
  });
});
