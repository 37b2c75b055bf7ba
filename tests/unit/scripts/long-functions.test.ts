import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { checkLongFunctions } from "../../../scripts/long-functions.mjs";

let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

// A throwaway src/ tree, so the check reads whatever functions it is given.
function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), "yolo-long-fns-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

// A function of `n` lines in all, written the way `shape` says.
function fn(n: number, shape: "declaration" | "arrow" = "declaration", above = ""): string {
  const body = Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const head = shape === "declaration" ? "export function big(): void {" : "export const big = (): void => {";
  return `${above}${head}\n${body}\n}${shape === "arrow" ? ";" : ""}\n`;
}

describe("the long-function check", () => {
  it("passes functions at the limit and fails one line over it, naming the file, line and length", () => {
    expect(checkLongFunctions(tree({ "src/a/ok.ts": fn(80) }), {})).toEqual([]);
    const problems = checkLongFunctions(tree({ "src/a/long.ts": `// x\n${fn(81, "arrow")}` }), {});
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^src\/a\/long\.ts:2 big is 81 lines \(limit 80\)/);
  });

  it("accepts a long function whose comment above says why, and only that phrase", () => {
    const reasoned = fn(120, "declaration", "// Long on purpose: one switch over every event kind.\n");
    expect(checkLongFunctions(tree({ "src/a/r.ts": reasoned }), {})).toEqual([]);
    const vague = fn(120, "arrow", "/** Does a lot. */\n");
    expect(checkLongFunctions(tree({ "src/a/v.ts": vague }), {})).toHaveLength(1);
  });

  it("holds the allowed list both ways: a listed function may stay long, a listed one that is not long fails", () => {
    const dir = tree({ "src/a/long.ts": fn(100) });
    expect(checkLongFunctions(dir, { "src/a/long.ts:big": "being split" })).toEqual([]);
    const stale = checkLongFunctions(dir, { "src/a/long.ts:big": "being split", "src/a/gone.ts:old": "split already" });
    expect(stale).toEqual([expect.stringMatching(/^src\/a\/gone\.ts:old is no longer over 80 lines .*remove it from LONG_FUNCTIONS_ALLOWED/)]);
  });

  it("holds on this repository's own src/", () => {
    expect(checkLongFunctions(process.cwd())).toEqual([]);
  });
});
