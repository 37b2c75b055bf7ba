import fs from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";
import { defaultGates } from "../../../src/gates/detect.js";
import { runGatesWithTests } from "../../../src/gates/run-gates.js";
import { scopeSingleProject } from "../../../src/gates/single-scope.js";
import { tempDir } from "../../helpers/per-test.js";
import { toolchain } from "../../helpers/toolchain.js";

// One real crate: detection writes `cargo test`; a change to one integration test file runs that target alone
// (`--test`), and the real cargo output names only its tests; the whole suite still runs every target.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, CARGO_NET_OFFLINE: "true" };
const test = (name: string, body: string) => `#[test]\nfn ${name}() {\n    ${body}\n}\n`;

describe.runIf(toolchain("cargo", ["cargo", "--version"]))("cargo, one crate: a changed integration test file runs as its own target", () => {
  it("runs only the changed target, fails on it at once, and the whole suite runs every target", async ({ expect, onTestFinished }) => {
    const root = tempDir(onTestFinished, "yolo-crate-");
    const files: Record<string, string> = {
      "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\ndoctest = false\n',
      "src/lib.rs": `pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n${test("unit", "assert_eq!(add(1, 1), 2);")}}\n`,
      "tests/price.rs": test("price_adds", "assert_eq!(shop::add(2, 3), 6);"),
      "tests/cart.rs": test("cart_adds", "assert_eq!(shop::add(1, 2), 3);"),
    };
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
    const [gate] = defaultGates(root).filter((g) => g.name === "test");
    expect(gate.command).toBe("cargo test");
    const scoped = scopeSingleProject(gate, { root, mode: "changed", configured: false, change: { ok: true, files: ["tests/price.rs"] } });
    expect(scoped?.gate.command).toBe("cargo test --no-fail-fast --test 'price'");
    const opts = { root, env, capBytes: 1 << 20, attempt: 1, logDir: path.join(root, ".yolo/gates") };
    const [narrowed] = await runGatesWithTests([scoped!.gate], opts);
    expect(narrowed.result.passed).toBe(false);
    expect((narrowed.tests ?? []).map((t) => `${t.id}: ${t.status}`)).toEqual([expect.stringMatching(/price_adds: failed$/)]);
    const [whole] = await runGatesWithTests([gate], { ...opts, attempt: 2 });
    expect((whole.tests ?? []).map((t) => t.status).sort()).toEqual(["failed", "passed", "passed"]);
  }, 300_000);
});
