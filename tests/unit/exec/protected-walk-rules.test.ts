import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { execFileReason } from "../../../src/exec/exec-files.js";
import { findProtectedPaths } from "../../../src/exec/protected-paths.js";
import { sensitiveReason } from "../../../src/secrets/sensitive.js";
import { tempDir } from "../../helpers/per-test.js";

// The walk checks each entry's name with its folder's alone (src/exec/protected-paths.ts); the tools check whole
// paths (execFileReason, sensitiveReason). Both must flag the same entries, whatever the spelling.
const DIRS = ["src", ".GitHub", ".github", "pkg/.github", ".cache", "a/.CACHE", "node_modules", "deep/node_modules", "docs", "x/y/z"];
const NAMES = [
  "index.ts",
  "workflows",
  "Workflows",
  "actions",
  "yolo",
  ".bin",
  ".env",
  ".ENV. ",
  ".env.example",
  "prod.env",
  "\uff0eenv", // a fullwidth full stop: NFKC folds it into ".env"
  ".git",
  ".vscode",
  "x.code-workspace",
  ".npmrc",
  "id_ed25519",
  "deploy.pem",
  "...",
  ".husky",
  "Jenkinsfile",
  ".ssh",
];

function tree(root: string): string[] {
  const made: string[] = [];
  for (const dir of DIRS) {
    for (const [i, name] of NAMES.entries()) {
      const rel = path.join(dir, name);
      fs.mkdirSync(path.join(root, dir), { recursive: true });
      // Folders and files both: a rule may differ for the last segment of a path only.
      if (i % 2 === 0) fs.mkdirSync(path.join(root, rel), { recursive: true });
      else fs.writeFileSync(path.join(root, rel), "x\n");
      made.push(rel);
    }
  }
  return made;
}

describe("the protected-paths walk", () => {
  it("flags exactly the entries the whole-path rules flag, for every spelling and depth", ({ onTestFinished }) => {
    const root = tempDir(onTestFinished, "yolo-walk-rules-");
    tree(root);
    const found = findProtectedPaths(root);
    const flagged = new Set([...found.readOnly, ...found.maskedFiles, ...found.maskedDirs].map((p) => path.relative(root, fs.realpathSync(p))));
    // What a walk asking the whole-path rules of every entry it reaches would flag (it stops at what it flags, and
    // does not enter node_modules, whose .bin it flags when present).
    const expected = new Set<string>();
    const walk = (rel: string) => {
      for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
        const child = rel ? path.join(rel, entry.name) : entry.name;
        if (entry.name === "node_modules" && entry.isDirectory()) {
          if (fs.existsSync(path.join(root, child, ".bin"))) expected.add(path.join(child, ".bin"));
          continue;
        }
        if (execFileReason(child) !== null || sensitiveReason(child) !== null) {
          expected.add(child);
          continue;
        }
        if (entry.isDirectory()) walk(child);
      }
    };
    walk("");
    expect(expected.size).toBeGreaterThan(40);
    expect([...flagged].filter((p) => !p.includes(`${path.sep}hooks`)).sort()).toEqual([...expected].sort());
  });
});
