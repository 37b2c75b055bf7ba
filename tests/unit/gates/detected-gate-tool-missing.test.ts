import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { gatesToRun, leftOutWarning } from "../../../src/gates/missing-tool.js";
import { noGateReason } from "../../../src/gates/no-gate.js";
import { tempDir } from "../../helpers/per-test.js";

// A detected gate whose program is not installed is left out (with a warning), never a failure of the run's
// environment: the user asked for nothing but their tests. A gate the user configured always runs.
type Finally = Parameters<typeof tempDir>[0];

function projectWith(onTestFinished: Finally, files: Record<string, string>): string {
  const root = tempDir(onTestFinished, "yolo-missing-");
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

// A PATH holding only these programs (node and npm always: the real ones, linked).
function pathWith(onTestFinished: Finally, programs: string[]): string {
  const bin = tempDir(onTestFinished, "yolo-bin-");
  for (const real of ["/usr/bin/node", "/usr/bin/npm"]) symlinkSync(real, join(bin, real.split("/").pop() as string));
  for (const name of programs) {
    writeFileSync(join(bin, name), "#!/bin/sh\nexit 0\n");
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

const names = (r: ReturnType<typeof gatesToRun>) => ({ run: r.gates.map((g) => g.name), leftOut: r.leftOut.map((l) => `${l.gate.name}:${l.program}`) });
const PYPROJECT = '[project]\nname = "p"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[tool.ruff]\nline-length = 100\n';

describe("detected gates whose program is not installed", () => {
  it("ruff configured in pyproject but not installed: the ruff gate is left out, pytest runs", ({ onTestFinished }) => {
    const root = projectWith(onTestFinished, { "pyproject.toml": PYPROJECT });
    expect(names(gatesToRun(undefined, root, pathWith(onTestFinished, ["pytest"])))).toEqual({ run: ["test"], leftOut: ["ruff:ruff"] });
    expect(names(gatesToRun(undefined, root, pathWith(onTestFinished, ["pytest", "ruff"])))).toEqual({ run: ["test", "ruff"], leftOut: [] });
  });

  it("uv, tox, go and cargo projects without their tool", ({ onTestFinished }) => {
    const none = pathWith(onTestFinished, []);
    const uv = projectWith(onTestFinished, { "pyproject.toml": `${PYPROJECT}\n[tool.uv]\n` });
    expect(names(gatesToRun(undefined, uv, none))).toEqual({ run: [], leftOut: ["test:uv", "ruff:uv"] });
    // uv there, ruff neither in the project's .venv nor on PATH.
    expect(names(gatesToRun(undefined, uv, pathWith(onTestFinished, ["uv", "pytest"])))).toEqual({ run: ["test"], leftOut: ["ruff:ruff"] });
    const tox = projectWith(onTestFinished, { "tox.ini": "[tox]\nenvlist = py3\n\n[testenv]\ncommands = pytest\n" });
    expect(names(gatesToRun(undefined, tox, none))).toEqual({ run: [], leftOut: ["test:tox"] });
    const go = projectWith(onTestFinished, { "go.mod": "module demo\n\ngo 1.19\n" });
    expect(names(gatesToRun(undefined, go, none))).toEqual({ run: [], leftOut: ["test:go", "vet:go"] });
    const cargo = projectWith(onTestFinished, { "Cargo.toml": '[package]\nname = "c"\nversion = "0.1.0"\n' });
    expect(names(gatesToRun(undefined, cargo, none))).toEqual({ run: [], leftOut: ["test:cargo"] });
  });

  it("npm run lint whose eslint is missing from node_modules/.bin is left out; installed, it runs", ({ onTestFinished }) => {
    const root = projectWith(onTestFinished, {
      "package.json": JSON.stringify({ scripts: { test: "node --test", lint: "eslint .", typecheck: "tsc --noEmit" } }),
    });
    const path = pathWith(onTestFinished, []);
    expect(names(gatesToRun(undefined, root, path))).toEqual({ run: ["test"], leftOut: ["lint:eslint", "typecheck:tsc"] });
    mkdirSync(join(root, "node_modules", ".bin"), { recursive: true });
    for (const bin of ["eslint", "tsc"]) {
      writeFileSync(join(root, "node_modules", ".bin", bin), "#!/bin/sh\n");
      chmodSync(join(root, "node_modules", ".bin", bin), 0o755);
    }
    expect(names(gatesToRun(undefined, root, path))).toEqual({ run: ["test", "lint", "typecheck"], leftOut: [] });
  });

  it("a configured gate is never left out", ({ onTestFinished }) => {
    const root = projectWith(onTestFinished, { "pyproject.toml": PYPROJECT });
    const configured = [{ name: "ruff", command: "ruff check .", required: false, timeoutS: 60 }];
    expect(names(gatesToRun(configured, root, pathWith(onTestFinished, [])))).toEqual({ run: ["ruff"], leftOut: [] });
  });

  it("tox or uv not installed: the project's own pytest judges instead, said in the warning; without pytest the gate is left out", ({ onTestFinished }) => {
    const tox = projectWith(onTestFinished, { "pyproject.toml": PYPROJECT, "tox.ini": "[tox]\nenvlist = py3\n" });
    const withPytest = gatesToRun(undefined, tox, pathWith(onTestFinished, ["pytest", "ruff"]));
    expect(withPytest.gates.map((g) => [g.name, g.command])).toEqual([
      ["test", "pytest -rA"],
      ["ruff", "ruff check ."],
    ]);
    expect(withPytest.leftOut.map(leftOutWarning)).toEqual([
      'The detected gate "test" runs `pytest -rA` instead of `tox`: tox is not installed (not found on PATH). Install tox to have it judged, or list the gates you want in yolo.config.ts (a configured gate always runs).',
    ]);
    expect(names(gatesToRun(undefined, tox, pathWith(onTestFinished, ["ruff"])))).toEqual({ run: ["ruff"], leftOut: ["test:tox"] });
    // Control: with tox installed, tox is the gate.
    expect(gatesToRun(undefined, tox, pathWith(onTestFinished, ["tox", "pytest", "ruff"])).gates[0].command).toBe("tox");

    const uv = projectWith(onTestFinished, { "pyproject.toml": PYPROJECT, "uv.lock": "" });
    expect(gatesToRun(undefined, uv, pathWith(onTestFinished, ["pytest", "ruff"])).gates.map((g) => g.command)).toEqual(["pytest -rA", "ruff check ."]);
  });

  it("every detected gate left out: the no-gate warning says they cannot run here, not that none was detected", ({ onTestFinished }) => {
    const root = projectWith(onTestFinished, { "pyproject.toml": PYPROJECT, "tox.ini": "[tox]\n" });
    expect(noGateReason(root, null)).toContain("the gates detected here cannot run: their programs are not installed");
  });
});
