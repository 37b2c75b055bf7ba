import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { execWriteRefusal } from "../../../src/exec/exec-files.js";
import { tempDir } from "../../helpers/per-test.js";

// The file tools never make a folder a git dir of its own (HEAD beside a config, objects/ or refs/), whatever its
// name: `git status` inside it would run its config's fsmonitor.
describe("write_file cannot make a git dir", () => {
  const refusal = (root: string, rel: string) => execWriteRefusal(root, path.join(root, rel), rel, []);

  it("HEAD beside a config, objects/ or refs/ is refused, at any depth; HEAD or config alone is not", (ctx) => {
    const root = tempDir(ctx.onTestFinished, "yolo-gitdir-write-");
    expect(refusal(root, "evil/HEAD")).toBeNull();
    fs.mkdirSync(path.join(root, "evil"));
    fs.writeFileSync(path.join(root, "evil/HEAD"), "ref: refs/heads/main\n");
    expect(refusal(root, "evil/config")).toMatch(/would make `evil` a git dir of its own/);
    expect(refusal(root, "evil/refs/heads/main")).toMatch(/`evil`/);
    expect(refusal(root, "evil/objects/info/keep")).toMatch(/`evil`/);
    expect(refusal(root, "evil/notes.txt")).toBeNull();
    fs.mkdirSync(path.join(root, "a/b/store"), { recursive: true });
    fs.writeFileSync(path.join(root, "a/b/store/config"), "[core]\n");
    expect(refusal(root, "a/b/store/HEAD")).toMatch(/`a\/b\/store`/);
    // A config beside ordinary files is just a file.
    expect(refusal(root, "app/config")).toBeNull();
  });
});
