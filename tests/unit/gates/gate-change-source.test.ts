import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { GateConfig } from "../../../src/gates/schema.js";
import { diffGateDefinition, resolveGateDefinition } from "../../../src/gates/definition.js";
import { gateChangeQuestion, gateChangeSource } from "../../../src/gates/gate-change-source.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "yolo-gcs-"));
  dirs.push(root);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}
const gate = (command: string, name = "test"): GateConfig[] => [{ name, command, required: true, timeoutS: 60 }];
const pkg = (scripts: Record<string, string>) => JSON.stringify({ scripts });
const TEST_FILE = 'import { test } from "node:test";\ntest("adds", () => {});\n';

// The definitions a gate check compares: the one recorded at the baseline, and the one with the current config now.
async function change(files: Record<string, string>, baseGates: GateConfig[], edit: (root: string) => void, nowGates: GateConfig[]) {
  const root = tree(files);
  const before = await resolveGateDefinition(root, baseGates);
  edit(root);
  const now = await resolveGateDefinition(root, nowGates);
  return { root, before, now, changes: diffGateDefinition(before, now) };
}

describe("who changed what defines the gate", () => {
  it("the configuration: the gate's command differs from the baseline's and the project's gate files did not change", async () => {
    const c = await change({ "package.json": pkg({ test: "node --test" }), "test/a.test.js": TEST_FILE }, gate("npm test"), () => {}, gate("npm run unit"));
    expect(c.changes.length).toBeGreaterThan(0);
    expect(gateChangeSource(c.before, c.now, c.root)).toBe("configuration");
    const question = gateChangeQuestion("configuration", c.changes, "the baseline");
    expect(question).not.toMatch(/An agent/);
    expect(question).toMatch(
      /^The gate's configuration \(its command in yolo\.config\.ts or on the command line\) changed what defines the gate since the baseline/,
    );
  });

  it("the configuration: a configured gate removed since the baseline", async () => {
    const files = { "package.json": pkg({ test: "node --test", lint: "eslint ." }) };
    const c = await change(files, [...gate("npm test"), ...gate("npm run lint", "lint")], () => {}, gate("npm test"));
    expect(c.changes).toEqual(["gate lint was removed"]);
    expect(gateChangeSource(c.before, c.now, c.root)).toBe("configuration");
  });

  it("an agent: the command is the baseline's and package.json's test script was rewritten", async () => {
    const c = await change(
      { "package.json": pkg({ test: "node --test" }) },
      gate("npm test"),
      (root) => writeFileSync(join(root, "package.json"), pkg({ test: "exit 0" })),
      gate("npm test"),
    );
    expect(gateChangeSource(c.before, c.now, c.root)).toBe("agent");
    expect(gateChangeQuestion("agent", c.changes, "the baseline")).toMatch(/^An agent changed what defines the gate \(package\.json scripts\.test changed/);
  });

  it("both: the configuration changed the command and an agent emptied a test file", async () => {
    const c = await change(
      { "package.json": pkg({ test: "node --test" }), "test/a.test.js": TEST_FILE },
      gate("npm test"),
      (root) => writeFileSync(join(root, "test/a.test.js"), "// nothing\n"),
      gate("node --test"),
    );
    expect(c.changes).toContain("test file test/a.test.js was emptied (no tests left in it)");
    expect(gateChangeSource(c.before, c.now, c.root)).toBe("both");
    expect(gateChangeQuestion("both", c.changes, "the last approval")).toMatch(
      /^The gate's configuration \(its command in yolo\.config\.ts or on the command line\) and an agent changed what defines the gate since the last approval \(3 changes\)/,
    );
  });

  it("both: the configuration changed the command and an agent rewrote the script the baseline's command ran", async () => {
    const c = await change(
      { "package.json": pkg({ test: "node --test", unit: "node --test test/unit" }) },
      gate("npm test"),
      (root) => writeFileSync(join(root, "package.json"), pkg({ test: "exit 0", unit: "node --test test/unit" })),
      gate("npm run unit"),
    );
    expect(gateChangeSource(c.before, c.now, c.root)).toBe("both");
  });
});
