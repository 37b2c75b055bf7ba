import type { GateConfig } from "./schema.js";
import { detectDeno } from "./detect/deno.js";
import type { Detector, EcosystemGates } from "./detect/files.js";
import { detectGo } from "./detect/go.js";
import { detectGradle, detectMaven } from "./detect/jvm.js";
import { detectMake } from "./detect/make.js";
import { detectNode } from "./detect/node.js";
import { detectPython } from "./detect/python.js";
import { detectRust } from "./detect/rust.js";

/** The ecosystems yolo recognises, in the order their gates run. A Makefile is only the fallback (see below). */
const DETECTORS: Detector[] = [detectNode, detectDeno, detectPython, detectGo, detectRust, detectGradle, detectMaven];

/**
 * The gates to use when the config names none, from the repository's files (docs/gates.md, "Gates detected from the
 * repository"): each ecosystem's test command (required) and its lint / type-check commands (optional). A Makefile's
 * `test`/`check` target is used only when no ecosystem gave a test command: the ecosystem's own runner lists
 * each test, a Makefile target's output is whatever it prints. Missing or broken manifests are not errors.
 */
export function defaultGates(root: string): GateConfig[] {
  let found = DETECTORS.map((detect) => detect(root)).filter((g): g is EcosystemGates => g !== null && (g.test !== null || g.checks.length > 0));
  if (!found.some((g) => g.test !== null)) {
    const make = detectMake(root);
    if (make?.test) found = [make, ...found];
  }
  const prefix = found.length > 1;
  const named = (eco: EcosystemGates, gate: GateConfig): GateConfig => (prefix ? { ...gate, name: `${eco.ecosystem}-${gate.name}` } : gate);
  return [...found.flatMap((eco) => (eco.test ? [named(eco, eco.test)] : [])), ...found.flatMap((eco) => eco.checks.map((gate) => named(eco, gate)))];
}
