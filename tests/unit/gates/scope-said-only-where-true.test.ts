import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { GateConfig } from "../../../src/config/schema.js";
import { defaultGates } from "../../../src/gates/detect.js";
import { baselineScope, planGateScope, type ScopeInput } from "../../../src/gates/scope-plan.js";
import { scopeWords } from "../../../src/ui/format.js";
import { tempDir } from "../../helpers/per-test.js";

// A gate line says what a run covered only in a monorepo: a single Go module (with example modules
// in subfolders, which make the repository look like Go modules in subfolders) was told "whole suite: yolo narrows only
// the test commands it detects in a monorepo, not go test -v ./...".
function write(root: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const input = (root: string): ScopeInput => ({ root, mode: "changed", configured: false, change: { ok: true, files: ["main.go"] } });
const said = (gate: GateConfig, root: string) => {
  const scope = planGateScope(gate, input(root)).scope;
  return { run: scope ? scopeWords(scope) : null, baseline: baselineScope(root).scope ?? null };
};

describe("what a gate line says about narrowing", () => {
  it("a single Go module with example modules in subfolders: its go test and go vet lines say nothing of monorepos", ({ onTestFinished }) => {
    const root = write(tempDir(onTestFinished), {
      "go.mod": "module example.com/app\n\ngo 1.19\n",
      "main.go": "package main\n\nfunc main() {}\n",
      "examples/a/go.mod": "module example.com/app/examples/a\n\ngo 1.19\n",
      "examples/b/go.mod": "module example.com/app/examples/b\n\ngo 1.19\n",
    });
    const gates = defaultGates(root);
    expect(gates.map((g) => g.command)).toEqual(["go test -v ./...", "go vet ./..."]);
    for (const gate of gates) expect(said(gate, root)).toEqual({ run: null, baseline: null });
  });

  it("Go modules in subfolders only (a monorepo): the loop yolo narrows still says what it covers", ({ onTestFinished }) => {
    const root = write(tempDir(onTestFinished), {
      "lib/go.mod": "module example.com/lib\n\ngo 1.19\n",
      "svc/go.mod": "module example.com/svc\n\ngo 1.19\n",
    });
    const test = defaultGates(root).find((g) => g.name === "test") as GateConfig;
    const scope = planGateScope(test, { ...input(root), change: { ok: true, files: ["lib/x.go"] } }).scope;
    expect(scope).toMatchObject({ kind: "changed", units: ["example.com/lib"] });
    expect(baselineScope(root).scope).toMatchObject({ kind: "all", reason: "the baseline runs the whole suite" });
  });
});
