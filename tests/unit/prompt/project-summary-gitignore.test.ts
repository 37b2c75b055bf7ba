import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { projectSummary } from "../../../src/prompt/project-summary.js";

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "yolo-summary-")));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const put = (rel: string, content = "x\n") => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
};
const tree = () => (projectSummary(root) ?? "").split("\n\n")[0].split("\n").slice(1);

describe("the project summary on large or ignored trees", () => {
  it("leaves out what the root's and a first-level folder's .gitignore exclude", () => {
    put(".gitignore", "secrets/\n*.log\n");
    put("secrets/a.txt");
    put("app.log");
    put("src/.gitignore", "gen/\n");
    put("src/gen/x.ts");
    put("src/main.ts");
    expect(tree()).toEqual([".gitignore", "src/", "src/.gitignore", "src/main.ts"]);
  });

  it("stays bounded on a folder of thousands of files", () => {
    const dir = path.join(root, "data");
    fs.mkdirSync(dir);
    for (let i = 0; i < 6000; i++) fs.writeFileSync(path.join(dir, `f${i}`), "");
    const lines = tree();
    expect(lines).toHaveLength(61);
    expect(lines[60]).toBe("… (more files: use list_files)");
  });
});
