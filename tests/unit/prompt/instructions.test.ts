import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_INSTRUCTION_FILES, INSTRUCTIONS_CAP_BYTES, readInstructions } from "../../../src/prompt/instructions.js";
import { projectSummary } from "../../../src/prompt/project-summary.js";
import { tempDir } from "../../helpers/per-test.js";

// Project instructions as Codex reads them: from the repository root down to the folder yolo started in, nearer
// files later, AGENTS.override.md taking a folder's place, 32 KiB in all (cut at a line, saying so); CLAUDE.md and
// GEMINI.md where a folder has no AGENTS.md; a link out of the project refused.

function tree(onTestFinished: Parameters<typeof tempDir>[0], files: Record<string, string>): string {
  const root = tempDir(onTestFinished, "yolo-instr-");
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe("readInstructions", () => {
  it("reads root to start folder in order, the override in its folder's place, CLAUDE.md where there is no AGENTS.md", ({ onTestFinished }) => {
    const root = tree(onTestFinished, {
      "AGENTS.md": "root rules",
      "CLAUDE.md": "not read: AGENTS.md is there",
      "pkg/CLAUDE.md": "pkg rules",
      "pkg/web/AGENTS.md": "not read: overridden",
      "pkg/web/AGENTS.override.md": "web override",
      "other/AGENTS.md": "not on the way",
    });
    const read = readInstructions({ root, startDir: join(root, "pkg", "web"), names: DEFAULT_INSTRUCTION_FILES });
    expect(read.files).toEqual(["AGENTS.md", "pkg/CLAUDE.md", "pkg/web/AGENTS.override.md"]);
    const text = read.text ?? "";
    expect(text.indexOf("root rules")).toBeLessThan(text.indexOf("pkg rules"));
    expect(text.indexOf("pkg rules")).toBeLessThan(text.indexOf("web override"));
    expect(text).not.toContain("not read");
    expect(text).not.toContain("not on the way");
    expect(text).toContain('<data source="instructions: pkg/CLAUDE.md">');
  });

  it("configured names replace the defaults", ({ onTestFinished }) => {
    const root = tree(onTestFinished, { "AGENTS.md": "agents", ".cursorrules": "cursor rules" });
    expect(readInstructions({ root, names: [".cursorrules"] }).files).toEqual([".cursorrules"]);
    expect(readInstructions({ root, names: ["GEMINI.md"] }).text).toBeNull();
  });

  it("caps all files at 32 KiB, cut at a line, and says how much was left out", ({ onTestFinished }) => {
    const line = `${"x".repeat(99)}\n`;
    const root = tree(onTestFinished, { "AGENTS.md": line.repeat(200), "sub/AGENTS.md": line.repeat(200) });
    const read = readInstructions({ root, startDir: join(root, "sub"), names: DEFAULT_INSTRUCTION_FILES });
    const kept = (read.text ?? "").match(/x{99}/g)?.length ?? 0;
    expect(kept * 100).toBeLessThanOrEqual(INSTRUCTIONS_CAP_BYTES);
    expect(kept).toBeGreaterThan(300);
    expect(read.cutBytes).toBeGreaterThan(0);
    expect(read.text).toMatch(/Instructions cut at 32 KiB, from the root's side: AGENTS\.md \(\d+ of 20000 bytes shown\)/);
    expect(read.text).not.toMatch(/(^|\n)x{1,98}\n```/);
  });

  it("spends the cap from the nearest file out: a large root file is cut, the nearer one is kept whole", ({ onTestFinished }) => {
    const line = `${"r".repeat(99)}\n`;
    const root = tree(onTestFinished, { "AGENTS.md": line.repeat(560), "mid/AGENTS.md": "mid rules", "mid/pkg/AGENTS.md": "pkg rules win" });
    const read = readInstructions({ root, startDir: join(root, "mid", "pkg"), names: DEFAULT_INSTRUCTION_FILES });
    expect(read.files).toEqual(["AGENTS.md", "mid/AGENTS.md", "mid/pkg/AGENTS.md"]);
    const text = read.text ?? "";
    expect(text).toContain("pkg rules win");
    expect(text).toContain("mid rules");
    expect(text.indexOf("r".repeat(99))).toBeLessThan(text.indexOf("pkg rules win"));
    expect(read.cut).toEqual([{ file: "AGENTS.md", shownBytes: expect.any(Number), bytes: 56000 }]);
    expect(Buffer.byteLength(text.match(/r{99}\n?/g)?.join("") ?? "")).toBeLessThanOrEqual(INSTRUCTIONS_CAP_BYTES);

    // Nearer files that fill the cap leave the root's out entirely, and the header does not claim it.
    const full = tree(onTestFinished, { "AGENTS.md": "root rules ".repeat(20).trim(), "pkg/AGENTS.md": line.repeat(400) });
    const summary = projectSummary(full, { startDir: join(full, "pkg"), names: DEFAULT_INSTRUCTION_FILES }) ?? "";
    const fullRead = readInstructions({ root: full, startDir: join(full, "pkg"), names: DEFAULT_INSTRUCTION_FILES });
    expect(fullRead.files).toEqual(["pkg/AGENTS.md"]);
    expect(fullRead.text).not.toContain("root rules");
    expect(fullRead.cut.map((c) => [c.file, c.shownBytes])).toEqual([
      ["AGENTS.md", 0],
      ["pkg/AGENTS.md", expect.any(Number)],
    ]);
    expect(summary).toMatch(
      /Project instructions \(pkg\/AGENTS\.md; nearer folders later, they win where they differ; cut at 32 KiB: AGENTS\.md \(left out, 219 bytes\), pkg\/AGENTS\.md \(\d+ of 40000 bytes shown\)\)/,
    );
  });

  it("a link out of the project is refused by name, in the summary too", ({ onTestFinished }) => {
    const outside = tree(onTestFinished, { "hosts.yml": "cnryINSTRx42 token" });
    const root = tree(onTestFinished, { "README.md": "# r" });
    symlinkSync(join(outside, "hosts.yml"), join(root, "AGENTS.md"));
    const read = readInstructions({ root, names: DEFAULT_INSTRUCTION_FILES });
    expect(read.text).toBeNull();
    expect(read.refused).toEqual([{ file: "AGENTS.md", reason: expect.stringContaining("outside the project") }]);
    const summary = projectSummary(root) ?? "";
    expect(summary).toContain("AGENTS.md: not shown");
    expect(summary).not.toContain("cnryINSTR");
  });
});
