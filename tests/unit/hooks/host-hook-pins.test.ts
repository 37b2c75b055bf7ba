import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { changedPin, pinFiles } from "../../../src/hooks/trust.js";
import { tempDir } from "../../helpers/per-test.js";

// A hook on the host is pinned by everything it runs from the project: the scripts its shell scripts source or call,
// the packages its code imports or runs, and the package manager's config, present or not. A hook in the sandbox is
// pinned by the files its command names only (what it runs cannot reach the user's secrets).

function project(files: Record<string, string>, onTestFinished: Parameters<typeof tempDir>[0]): string {
  const root = tempDir(onTestFinished, "yolo-host-pins-");
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const rels = (root: string, pins: { path: string }[]) => pins.map((p) => path.relative(root, p.path)).sort();

describe("what a host hook is pinned by", () => {
  it("sourced scripts, imported and npx-run packages, and the package manager's files (an absent .npmrc that appears is a change)", ({ onTestFinished }) => {
    const root = project(
      {
        "package.json": JSON.stringify({ scripts: { lint: "node hooks/check.mjs" } }),
        "hooks/guard.sh": ". ./hooks/lib.sh\nsh hooks/more.sh # a comment naming hooks/ignored.sh\n",
        "hooks/lib.sh": "check() { :; }\n",
        "hooks/more.sh": "true\n",
        "hooks/ignored.sh": "true\n",
        "hooks/check.mjs": 'import { check } from "checker";\ncheck();\n',
        "node_modules/checker/package.json": '{ "name": "checker" }',
        "node_modules/checker/index.js": "export const check = () => 0;\n",
        "node_modules/eslint/package.json": '{ "name": "eslint" }',
      },
      onTestFinished,
    );
    const guard = pinFiles("sh hooks/guard.sh", root, { host: true });
    expect(rels(root, guard)).toEqual(["hooks/guard.sh", "hooks/lib.sh", "hooks/more.sh"]);
    expect(rels(root, pinFiles("sh hooks/guard.sh", root))).toEqual(["hooks/guard.sh"]);

    const lint = pinFiles("npm run -s lint && npx eslint .", root, { host: true });
    expect(rels(root, lint)).toEqual(
      [
        ".npmrc",
        ".pnpmfile.cjs",
        ".pnpmfile.mjs",
        ".yarnrc",
        ".yarnrc.yml",
        "bunfig.toml",
        "hooks/check.mjs",
        "node_modules/checker",
        "node_modules/eslint",
        "package.json",
        "package.json",
        "package.json",
      ].sort(),
    );
    expect(changedPin(lint)).toBeNull();
    fs.writeFileSync(path.join(root, ".npmrc"), "script-shell=./evil.sh\n");
    expect(changedPin(lint)).toBe(path.join(root, ".npmrc"));
    fs.rmSync(path.join(root, ".npmrc"));
    fs.appendFileSync(path.join(root, "node_modules/checker/index.js"), "// changed\n");
    expect(changedPin(lint)).toBe(path.join(root, "node_modules/checker"));
    // In the sandbox, neither is pinned.
    expect(rels(root, pinFiles("npm run -s lint", root))).toEqual(["hooks/check.mjs", "package.json", "package.json", "package.json"]);
  });
});
