import { checkGate, exists, readText, testGate, type Detector } from "./files.js";

/**
 * Rust: `cargo test` (its output lists every test), with `--workspace` for a workspace so every member is
 * tested; `cargo clippy` as an optional gate when the project configures clippy (clippy.toml or `[lints.clippy]`).
 */
export const detectRust: Detector = (root) => {
  const manifest = readText(root, "Cargo.toml");
  if (manifest === null) return null;
  const workspace = /^\[workspace\]/m.test(manifest);
  const clippy = exists(root, "clippy.toml") || exists(root, ".clippy.toml") || /^\[(workspace\.)?lints\.clippy\]/m.test(manifest);
  return {
    ecosystem: "cargo",
    test: testGate(workspace ? "cargo test --workspace" : "cargo test"),
    checks: clippy ? [checkGate("clippy", `cargo clippy${workspace ? " --workspace" : ""} --all-targets -- -D warnings`)] : [],
  };
};
