import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { projectSummary } from "../../../src/prompt/project-summary.js";
import { tempDir } from "../../helpers/per-test.js";

function dir(files: Record<string, string>): string {
  const root = tempDir(onTestFinished, "yolo-summary-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

describe("projectSummary", () => {
  it("has the tree, the manifest and fenced excerpts of AGENTS.md and README.md", () => {
    const summary = projectSummary(dir({ "package.json": '{"name":"demo"}', "AGENTS.md": "Use pnpm.", "README.md": `# Demo\n${"x".repeat(5000)}` }))!;
    expect(summary.split("\n\n")[0].split("\n").sort()).toEqual(["AGENTS.md", "Files (top two levels):", "README.md", "package.json"]);
    expect(summary).toContain('<data source="package.json (excerpt)">');
    expect(summary).toContain('<data source="instructions: AGENTS.md">\n```\nUse pnpm.\n```');
    expect(summary).toContain("… (truncated: read_file for the rest)");
    expect(summary.length).toBeLessThan(4000);
  });

  it("is null for an empty or missing directory", () => {
    expect(projectSummary(dir({}))).toBeNull();
    expect(projectSummary("/nonexistent/yolo")).toBeNull();
  });
});
