import { describe, expect, it } from "vitest";
import { FINDINGS_MAX, lintFindings, newFindings } from "../../../src/gates/lint-findings.js";

const ROOT = "/home/me/proj";

// The shapes below are what eslint 10 (stylish), tsc 5.9 and prettier 3 printed on a generated project.
const eslint = (positions: string[], summary: string) =>
  `\n> m@1.0.0 lint\n> eslint src\n\n\n${ROOT}/src/a.js\n${positions.map((p) => `  ${p}  error  'a' is assigned a value but never used  no-unused-vars`).join("\n")}\n\n${summary}\n\n`;

describe("lintFindings: a lint's output lines as findings", () => {
  it("cuts the root, collapses whitespace and replaces digits, so a finding that moved reads the same", () => {
    const before = lintFindings(eslint(["1:7"], "✖ 1 problem (1 error, 0 warnings)"), ROOT);
    const moved = lintFindings(eslint(["12:7"], "✖ 1 problem (1 error, 0 warnings)"), ROOT);
    expect(before).toEqual(["> m@#.#.# lint", "> eslint src", "src/a.js", "#:# error 'a' is assigned a value but never used no-unused-vars"]);
    expect(moved).toEqual(before);
  });

  it("drops the count summaries whose words change with the count (eslint, tsc, prettier)", () => {
    const two = lintFindings(eslint(["1:7", "2:7"], "✖ 2 problems (2 errors, 0 warnings)"), ROOT) ?? [];
    const one = lintFindings(eslint(["1:7"], "✖ 1 problem (1 error, 0 warnings)"), ROOT) ?? [];
    expect(newFindings(two, one)).toEqual([]);
    const tsc = (summary: string) => lintFindings(`src/t.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'.\n\n${summary}\n`, ROOT);
    expect(tsc("Found 1 error in src/t.ts\x1b[90m:1\x1b[0m")).toEqual(tsc("Found 2 errors in the same file, starting at: src/t.ts:1"));
    const prettier = (files: string[], summary: string) =>
      lintFindings(`Checking formatting...\n${files.map((f) => `[warn] ${f}`).join("\n")}\n[warn] ${summary}\n`, ROOT);
    const fewer = prettier(["src/b.js"], "Code style issues found in the above file. Run Prettier with --write to fix.") ?? [];
    const more = prettier(["src/b.js", "src/c.js"], "Code style issues found in 2 files. Run Prettier with --write to fix.") ?? [];
    expect(newFindings(more, fewer)).toEqual([]);
    expect(newFindings(fewer, more)).toEqual(["[warn] src/c.js"]);
  });

  it("drops cargo's count summaries and build progress, which change with the count, the cache and timing (clippy 0.1.95)", () => {
    const clippy = (n: number, progress: string) =>
      lintFindings(
        `${progress}\nerror: unused variable: \`x\`\n --> src/lib.rs:2:9\nerror: could not compile \`x\` (lib) due to ${n} previous error${n === 1 ? "" : "s"}\n`,
        ROOT,
      );
    expect(clippy(1, "    Checking x v0.1.0 (/home/me/proj)")).toEqual(
      clippy(2, "   Compiling serde v1.0.200\nwarning: build failed, waiting for other jobs to finish..."),
    );
    expect(clippy(1, "")).toEqual(["error: unused variable: `x`", "--> src/lib.rs:#:#"]);
  });

  it("strips colour codes, keeps file paths and ignores empty lines", () => {
    const coloured = "\x1b[96msrc/t.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m14\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mType 'string'\r\n\r\n";
    expect(lintFindings(coloured, ROOT)).toEqual(["src/t.ts:#:# - error TS#: Type 'string'"]);
  });

  it("is null when yolo cut the output or it has more lines than it compares", () => {
    expect(lintFindings("a\n[… 1200 more bytes not kept …]\n", ROOT)).toBeNull();
    expect(lintFindings("a\n[… 1200 bytes omitted …]\nb", ROOT)).toBeNull();
    const many = Array.from({ length: FINDINGS_MAX + 1 }, (_, i) => `src/f${i}.js: bad`).join("\n");
    expect(lintFindings(many, ROOT)).toBeNull();
    expect(lintFindings(many.split("\n").slice(1).join("\n"), ROOT)).toHaveLength(FINDINGS_MAX);
  });
});

describe("newFindings: what the change added, as a multiset", () => {
  it("counts a line printed more often than at the baseline as new, and one printed less often as nothing", () => {
    expect(newFindings(["x", "y"], ["x", "x", "y"])).toEqual(["x"]);
    expect(newFindings(["x", "x", "y"], ["x"])).toEqual([]);
    expect(newFindings([], ["z"])).toEqual(["z"]);
  });
});
