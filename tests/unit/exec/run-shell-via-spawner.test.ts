// The existing tests of runShell, run_command, the gates and the sandbox's walls, every command started by the spawner
// helper process (src/exec/spawner.ts): the helper path must behave exactly as the direct one. The sandbox's file and
// secret corpus (sandbox-guard) runs once, on its own: what the sandbox hides is decided by the command's argv, built
// by runShell before either path spawns it (bwrapArgv in src/exec/run-shell.ts), and bwrap-sandbox covers both paths.
import { setSpawnerMode } from "../../../src/exec/spawner.js";

setSpawnerMode("helper");
await import("../tools/run-command.test.js");
await import("../gates/run-gates.test.js");
await import("./bwrap-sandbox.test.js");
