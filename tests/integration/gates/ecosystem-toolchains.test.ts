import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultGates } from "../../../src/gates/detect.js";
import { parseTestOutput } from "../../../src/gates/parse.js";
import { commandEnv } from "../../../src/secrets/env.js";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap, type Sandbox } from "../../../src/exec/sandbox.js";
import { toolchain } from "../../helpers/toolchain.js";

// Each fixture (tests/fixtures/ecosystems/<eco>) has one passing, one failing and one skipped test. The detected
// gate command runs with the real toolchain — inside bubblewrap when it works here, as a run's gates do — and the
// per-test results must name all three with their outcome.
const FIXTURES = path.resolve("tests/fixtures/ecosystems");
const probe = probeBwrap(process.env.PATH);
const sandbox: Sandbox = probe.available ? { kind: "bwrap", binary: probe.binary } : { kind: "none" };

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

// Copies the fixture to a temporary folder and runs its detected test gate there.
async function runFixture(eco: string) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `yolo-eco-${eco}-`)));
  roots.push(root);
  fs.cpSync(path.join(FIXTURES, eco), root, { recursive: true });
  const [gate] = defaultGates(root);
  const run = await runShell(gate.command, {
    cwd: root,
    timeoutS: 300,
    env: commandEnv(process.env, [], null),
    capBytes: 256 * 1024,
    keepFullOutput: true,
    sandbox,
  });
  const output = run.fullOutput ?? run.output;
  return { root, gate, exitCode: run.exitCode, output, counts: parseTestOutput(output) };
}

const statuses = (tests: Array<{ id: string; status: string }> | null | undefined) => Object.fromEntries((tests ?? []).map((t) => [t.id, t.status]));

describe("detected gates with the real toolchain", () => {
  it.runIf(toolchain("go", ["go", "version"]))(
    "go: go test -v lists every test and subtest",
    async () => {
      const { exitCode, counts, output } = await runFixture("go");
      expect(exitCode, output).toBe(1);
      expect(statuses(counts.tests)).toEqual({
        "example.com/calc TestAdd": "passed",
        "example.com/calc TestAdd/positive": "passed",
        "example.com/calc TestSub": "failed",
        "example.com/calc TestLater": "skipped",
      });
      expect(counts).toMatchObject({ passedCount: 2, failedCount: 1, failures: ["example.com/calc TestSub"] });
    },
    300_000,
  );

  it.runIf(toolchain("cargo", ["cargo", "--version"]))(
    "cargo: cargo test lists every test",
    async () => {
      const { exitCode, counts, output } = await runFixture("cargo");
      expect(exitCode, output).toBe(101);
      expect(statuses(counts.tests)).toEqual({
        "src/lib.rs tests::adds": "passed",
        "src/lib.rs tests::subtracts": "failed",
        "src/lib.rs tests::later": "skipped",
        // The doc-test binary runs too and has no tests; it adds nothing.
      });
      expect(counts).toMatchObject({ passedCount: 1, failedCount: 1, failures: ["src/lib.rs tests::subtracts"] });
    },
    300_000,
  );

  it.runIf(toolchain("pytest", ["pytest", "--version"]))(
    "pytest: -rA lists passed and failed tests by node id",
    async () => {
      const { exitCode, counts, output } = await runFixture("pytest");
      expect(exitCode, output).toBe(1);
      expect(statuses(counts.tests)).toEqual({
        "tests/test_calc.py::test_add": "passed",
        "tests/test_calc.py::test_sub": "failed",
      });
      expect(counts).toMatchObject({ passedCount: 1, failedCount: 1, failures: ["tests/test_calc.py::test_sub"] });
    },
    300_000,
  );

  it.runIf(toolchain("python3", ["python3", "--version"]))(
    "unittest: -v lists every test by dotted id",
    async () => {
      const { exitCode, counts, output } = await runFixture("unittest");
      expect(exitCode, output).toBe(1);
      expect(statuses(counts.tests)).toEqual({
        "test_calc.TestCalc.test_add": "passed",
        "test_calc.TestCalc.test_sub": "failed",
        "test_calc.TestCalc.test_later": "skipped",
      });
      expect(counts).toMatchObject({ passedCount: 1, failedCount: 1, failures: ["test_calc.TestCalc.test_sub"] });
    },
    300_000,
  );

  it.runIf(toolchain("maven", ["mvn", "--version"]))(
    "maven: mvn test writes surefire's JUnit XML where the gate says",
    async () => {
      const { root, gate, exitCode, output } = await runFixture("maven");
      expect(exitCode, output).toBe(1);
      expect(output).toContain("Tests run: 3, Failures: 1, Errors: 0, Skipped: 1");
      const dir = path.join(root, path.dirname(gate.reports?.[0] ?? "none"));
      const xml = fs.readdirSync(dir).filter((f) => f.endsWith(".xml"));
      expect(xml).toEqual(["TEST-calc.CalcTest.xml"]);
      const report = fs.readFileSync(path.join(dir, xml[0]), "utf8");
      expect(report).toMatch(/<testcase name="subtracts"[^>]*>\s*<failure/);
    },
    300_000,
  );

  it("npm: npm test runs node --test and its results are read", async () => {
    const { exitCode, counts, output } = await runFixture("npm");
    expect(exitCode, output).toBe(1);
    expect(counts).toMatchObject({ passedCount: 1, failedCount: 1 });
    expect(counts.failures.join("\n")).toContain("subtracts");
  }, 120_000);
});
