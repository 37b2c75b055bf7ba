// The existing tests of runShell, run_command, the gates and the sandbox's walls, every command started from this
// process (no spawner helper): the path of a process's first commands, and of every command once the helper has
// failed. The sandbox's file and secret corpus (sandbox-guard) is not run a second time here: what the sandbox hides
// is decided by its argv, built by runShell before either path spawns it (bwrapArgv in src/exec/run-shell.ts), and
// bwrap-sandbox covers both paths.
import { setSpawnerMode } from "../../../src/exec/spawner.js";

setSpawnerMode("direct");
await import("../tools/run-command.test.js");
await import("../gates/run-gates.test.js");
await import("./bwrap-sandbox.test.js");
