import { checkGate, readText, testGate, type Detector } from "./files.js";

const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];

/** True when the Makefile defines `target` as a rule (`test:` or `check test:`), not a variable (`test := …`). */
export function hasTarget(makefile: string, target: string): boolean {
  return new RegExp(`^(?:[\\w./-]+[ \\t]+)*${target}(?:[ \\t]+[\\w./-]+)*[ \\t]*::?(?!=)`, "m").test(makefile);
}

/** A Makefile's `test` target (else `check`) as the test gate, and its `lint` target as an optional gate. */
export const detectMake: Detector = (root) => {
  const file = MAKEFILES.map((f) => readText(root, f)).find((t) => t !== null);
  if (!file) return null;
  const target = ["test", "check"].find((t) => hasTarget(file, t));
  return {
    ecosystem: "make",
    test: target ? testGate(`make ${target}`) : null,
    checks: hasTarget(file, "lint") ? [checkGate("lint", "make lint")] : [],
  };
};
