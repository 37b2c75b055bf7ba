import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { projectSummary } from "../../../src/prompt/project-summary.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "yolo-summary-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

describe("projectSummary", () => {
  it("has the tree, the manifest and fenced excerpts of AGENTS.md and README.md", () => {
    const summary = projectSummary(dir({ "package.json": '{"name":"demo"}', "AGENTS.md": "Use pnpm.", "README.md": `# Demo\n${"x".repeat(5000)}` }))!;
    expect(summary.split("\n\n")[0].split("\n").sort()).toEqual(["AGENTS.md", "Files (top two levels):", "README.md", "package.json"]);
    expect(summary).toContain('<data source="package.json (excerpt)">');
    expect(summary).toContain('<data source="AGENTS.md (excerpt)">\n```\nUse pnpm.\n```');
    expect(summary).toContain("… (truncated: read_file for the rest)");
    expect(summary.length).toBeLessThan(4000);
  });

  it("is null for an empty or missing directory", () => {
    expect(projectSummary(dir({}))).toBeNull();
    expect(projectSummary("/nonexistent/yolo")).toBeNull();
  });
});
