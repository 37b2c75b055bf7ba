import { mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { projectSummary } from "../../../src/prompt/project-summary.js";
import { tempDir } from "../../helpers/per-test.js";

// Long enough for every change time to be older than the summary's margin, so the summary is kept for reuse.
const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

/** A project whose summary is reused between calls: each change below must still show in the next summary. */
async function settledProject(): Promise<string> {
  const root = tempDir(onTestFinished, "yolo-summary-cache-");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "a.ts"), "export {};\n");
  writeFileSync(join(root, "package.json"), '{"name":"one"}');
  writeFileSync(join(root, "README.md"), "# One\n");
  await settle();
  return root;
}

describe("projectSummary between steps", () => {
  it("returns the same summary while nothing changed", async () => {
    const root = await settledProject();
    const first = projectSummary(root);
    expect(first).toContain("src/a.ts");
    expect(projectSummary(root)).toBe(first);
  });

  it("shows files added or removed in the root and in a first-level folder", async () => {
    const root = await settledProject();
    projectSummary(root);
    writeFileSync(join(root, "src", "b.ts"), "export {};\n");
    expect(projectSummary(root)).toContain("src/b.ts");
    await settle();
    projectSummary(root);
    rmSync(join(root, "src", "a.ts"));
    writeFileSync(join(root, "AGENTS.md"), "Use pnpm.");
    const after = projectSummary(root)!;
    expect(after).not.toContain("src/a.ts");
    expect(after).toContain("Use pnpm.");
  });

  it("shows the manifest and README edited in place, even to the same size with an old mtime set back", async () => {
    const root = await settledProject();
    expect(projectSummary(root)).toContain('"one"');
    writeFileSync(join(root, "package.json"), '{"name":"two"}');
    // An mtime set back by hand does not hide the edit: the change time still moves.
    utimesSync(join(root, "package.json"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(projectSummary(root)).toContain('"two"');
    await settle();
    projectSummary(root);
    writeFileSync(join(root, "README.md"), "# Two\n");
    expect(projectSummary(root)).toContain("# Two");
  });

  it("applies a .gitignore added to a first-level folder", async () => {
    const root = await settledProject();
    writeFileSync(join(root, "src", "secret.gen.ts"), "x\n");
    await settle();
    expect(projectSummary(root)).toContain("secret.gen.ts");
    writeFileSync(join(root, "src", ".gitignore"), "*.gen.ts\n");
    expect(projectSummary(root)).not.toContain("secret.gen.ts");
  });

  it("does not reuse a summary read right after a change (same-tick edits keep the stamp)", () => {
    const root = tempDir(onTestFinished, "yolo-summary-cache-");
    writeFileSync(join(root, "package.json"), '{"name":"fresh"}');
    expect(projectSummary(root)).toContain('"fresh"');
    // Rewritten at once, possibly within the same timestamp tick and to the same size: still seen.
    writeFileSync(join(root, "package.json"), '{"name":"fresH"}');
    expect(projectSummary(root)).toContain('"fresH"');
  });
});
