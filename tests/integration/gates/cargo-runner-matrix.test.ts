import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GateRun } from "../../../src/gates/run-gates.js";
import { judged, matrixProject, type MatrixProject, statuses, verdict } from "../../helpers/gate-matrix.js";
import { toolchain } from "../../helpers/toolchain.js";

// The real `cargo test`, offline, on one generated crate through the real gate code in the sandbox: ignored,
// should_panic, an integration test, doc tests; then a failing unit test (the later binaries still run: yolo adds
// --no-fail-fast) and a compile error (no test runs: each fails). Compiles are slow, so three runs in all.
const LIB = `/// Adds.
/// \`\`\`
/// assert_eq!(calc::add(1, 2), 3);
/// \`\`\`
pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    #[test]
    fn adds() {
        assert_eq!(super::add(2, 2), 4);
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn panics() {
        panic!("boom");
    }

    #[test]
    #[ignore = "slow"]
    fn slow() {}
}
`;
const FILES = {
  "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
  "src/lib.rs": LIB,
  "tests/api.rs": "#[test]\nfn api_adds() {\n    assert_eq!(calc::add(2, 3), 5);\n}\n",
};
const clean = { regressions: [], preExisting: [], newFailures: [], missing: [], fixed: [] };
// rustup's cargo finds its toolchains through the home folder.
const env = { HOME: process.env.HOME };

describe.runIf(toolchain("cargo", ["cargo", "--version"]))("cargo test through the gate, judged against its baseline", () => {
  let p: MatrixProject;
  let baseline: GateRun;
  beforeAll(async () => {
    p = matrixProject("cargo-matrix", FILES);
    baseline = await p.gate("cargo test", { env, timeoutS: 300 });
  }, 400_000);
  afterAll(() => p?.remove());

  it("green: ignored is skipped, should_panic passes, doc tests by item", () => {
    expect(baseline.result.passed, baseline.result.tail).toBe(true);
    expect(statuses(baseline.tests)).toEqual({
      "src/lib.rs tests::adds": "passed",
      "src/lib.rs tests::panics": "passed",
      "src/lib.rs tests::slow": "skipped",
      "tests/api.rs api_adds": "passed",
      "doc calc src/lib.rs - add": "passed",
    });
  });

  it("a failing unit test is a regression and the later binaries' tests are still judged; a compile error fails them all", async () => {
    p.write({ "src/lib.rs": LIB.replace("assert_eq!(super::add(2, 2), 4)", "assert_eq!(super::add(2, 2), 5)") });
    const failing = await p.gate("cargo test", { env, timeoutS: 300 });
    expect(verdict(judged(failing, baseline))).toEqual({ ...clean, regressions: ["src/lib.rs tests::adds"], blocking: true });
    p.write({ "src/lib.rs": LIB.replace("a + b", 'a + "b"') });
    const broken = await p.gate("cargo test", { env, timeoutS: 300 });
    // cargo runs a binary's tests on parallel threads and prints each as it ends, so the baseline lists a binary's
    // tests in either order, and tests gone with it follow that order: compared as a set.
    const all = verdict(judged(broken, baseline));
    expect({ ...all, regressions: [...all.regressions].sort() }).toEqual({
      ...clean,
      regressions: ["doc calc src/lib.rs - add", "src/lib.rs tests::adds", "src/lib.rs tests::panics", "tests/api.rs api_adds"],
      blocking: true,
    });
  }, 600_000);
});
