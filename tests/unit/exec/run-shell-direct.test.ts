// The existing tests of runShell, run_command, the gates and the sandbox, every command started from this process
// (no spawner helper): the path of a process's first commands, and of every command once the helper has failed.
import { setSpawnerMode } from "../../../src/exec/spawner.js";

setSpawnerMode("direct");
await import("../tools/run-command.test.js");
await import("../gates/run-gates.test.js");
await import("./bwrap-sandbox.test.js");
await import("./sandbox-guard.test.js");
