import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { matrixProject, statuses } from "../../helpers/gate-matrix.js";
import { toolchain } from "../../helpers/toolchain.js";

// Maven offline on the ecosystem fixture (its plugins must be in ~/.m2, as .ci/run's image has them), through the
// real gate code in the sandbox with no `reports` configured: Surefire's XML written by this run is read, test by test.
const FIXTURE = path.resolve("tests/fixtures/ecosystems/maven");
const files = (dir: string, rel = ""): Record<string, string> =>
  Object.fromEntries(
    fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
      const child = path.join(rel, e.name);
      return e.isDirectory() ? Object.entries(files(dir, child)) : [[child, fs.readFileSync(path.join(dir, child), "utf8")]];
    }),
  );

describe.runIf(toolchain("maven", ["mvn", "--version"]))("maven through the gate", () => {
  it("reads Surefire's reports from this run without reports configured", async () => {
    const p = matrixProject("maven-matrix", files(FIXTURE));
    try {
      // ~/.m2 is the user's, read-only in the sandbox.
      const run = await p.gate("mvn -B -ntp -o test", { env: { HOME: process.env.HOME }, timeoutS: 300 });
      expect(run.result.reading, run.result.tail).toBe("structured");
      expect(statuses(run.tests)).toEqual({ "calc.CalcTest > adds": "passed", "calc.CalcTest > subtracts": "failed", "calc.CalcTest > later": "skipped" });
    } finally {
      p.remove();
    }
  }, 400_000);
});
