// The existing tests of runShell, run_command, the gates and the sandbox, every command started by the spawner helper
// process (src/exec/spawner.ts): the helper path must behave exactly as the direct one.
import { setSpawnerMode } from "../../../src/exec/spawner.js";

setSpawnerMode("helper");
await import("../tools/run-command.test.js");
await import("../gates/run-gates.test.js");
await import("./bwrap-sandbox.test.js");
await import("./sandbox-guard.test.js");
