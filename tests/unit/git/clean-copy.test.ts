import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isTestSide } from "../../../src/gates/test-side.js";
import { makeCleanCopy } from "../../../src/git/clean-copy.js";
import { treeChanges, workTreeHash } from "../../../src/git/work-tree-hash.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function repo(files: Record<string, string>): string {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "yolo-clean-")));
  dirs.push(top);
  put(top, files);
  execFileSync("git", ["init", "-q"], { cwd: top });
  return top;
}
function put(root: string, files: Record<string, string>) {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
}

describe("the clean copy the baseline's tests run in", () => {
  it("holds the agent's code and the baseline's test files: a new TestMain or conftest is absent, an edited test is the baseline's", async () => {
    const root = repo({
      "go.mod": "module m\n",
      "add.go": "func Add() int { return 1 }\n",
      "add_test.go": "func TestAdd() {}\n",
      "tests/test_math.py": "def test_add(): pass\n",
      ".gitignore": "node_modules\n",
      "node_modules/dep/index.js": "export {}\n",
      "packages/a/index.js": "export {}\n",
      "packages/a/node_modules/nested/index.js": "export {}\n",
    });
    const base = await workTreeHash(root);
    put(root, {
      "add.go": "func Add() int { return 2 }\n",
      "add_test.go": "func TestAdd() { /* weakened */ }\n",
      "zz_main_test.go": "func TestMain() {}\n",
      "tests/conftest.py": "# patches reports\n",
      "tests/helpers/fake.py": "x = 1\n",
      "src/new.js": "export const n = 1;\n",
    });
    const now = await workTreeHash(root);
    expect((await treeChanges(root, base, now)).sort()).toEqual(
      ["add.go", "add_test.go", "src/new.js", "tests/conftest.py", "tests/helpers/fake.py", "zz_main_test.go"].sort(),
    );
    const copy = await makeCleanCopy({ root, baseTree: base, nowTree: now, testSide: isTestSide });
    expect(copy).not.toBeNull();
    try {
      const c = copy!;
      expect(c.reverted.sort()).toEqual(["add_test.go", "tests/conftest.py", "tests/helpers/fake.py", "zz_main_test.go"]);
      expect(readFileSync(join(c.root, "add.go"), "utf8")).toBe("func Add() int { return 2 }\n");
      expect(readFileSync(join(c.root, "src/new.js"), "utf8")).toBe("export const n = 1;\n");
      expect(readFileSync(join(c.root, "add_test.go"), "utf8")).toBe("func TestAdd() {}\n");
      expect(existsSync(join(c.root, "zz_main_test.go"))).toBe(false);
      expect(existsSync(join(c.root, "tests/conftest.py"))).toBe(false);
      // Installed dependencies are the project's own, linked.
      expect(readlinkSync(join(c.root, "node_modules"))).toBe(join(root, "node_modules"));
      expect(readlinkSync(join(c.root, "packages/a/node_modules"))).toBe(join(root, "packages/a/node_modules"));
      expect(c.linked.sort()).toEqual([join(root, "node_modules"), join(root, "packages/a/node_modules")]);
    } finally {
      copy?.remove();
    }
    expect(existsSync(copy!.root)).toBe(false);
    // The user's index was never written.
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" })).toMatch(/\?\? add\.go/);
  });

  it("is not made when the agent changed no test-side file", async () => {
    const root = repo({ "src/a.js": "1\n", "test/a.test.js": "t\n" });
    const base = await workTreeHash(root);
    put(root, { "src/a.js": "2\n" });
    expect(await makeCleanCopy({ root, baseTree: base, nowTree: await workTreeHash(root), testSide: isTestSide })).toBeNull();
  });

  it("leaves gate byproducts out of the tree (__pycache__, .pytest_cache, coverage data)", async () => {
    const root = repo({ "calc.py": "x\n" });
    const before = await workTreeHash(root);
    put(root, { "__pycache__/calc.cpython-312.pyc": "b", ".pytest_cache/v/cache/lastfailed": "{}", ".coverage": "c", "pkg/__pycache__/m.pyc": "b" });
    expect(await workTreeHash(root)).toBe(before);
  });

  it("counts test files, test folders and conftest.py as the tests' side, code as the change's", () => {
    for (const rel of ["test/add.test.js", "src/a.spec.ts", "tests/helpers.py", "pkg/conftest.py", "zz_main_test.go", "pkg/testdata/in.txt", "test_x.py"]) {
      expect(isTestSide(rel), rel).toBe(true);
    }
    for (const rel of ["src/add.js", "calc.py", "add.go", "package.json", "src/testing-utils.js"]) expect(isTestSide(rel), rel).toBe(false);
  });
});
