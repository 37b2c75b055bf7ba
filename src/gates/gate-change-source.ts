import { diffGateDefinition, type GateDefinition, packageScripts, scriptsRun } from "./definition.js";

/**
 * Who changed what defines the gate: the gate's configuration (yolo.config.ts, the environment or a flag: a command or a
 * gate that is not the recorded one), the project's files (what an agent writes: scripts, runner configs, test
 * files, dependencies), or both.
 */
export type GateChangeSource = "configuration" | "agent" | "both";

/**
 * Who changed `before` into `now`, when yolo can know: the configuration when a recorded gate's command is not the one
 * configured now (or the gate is gone); the project's files when they still differ from `before` under the recorded
 * commands (their scripts read from package.json as it is now). A change the configuration alone explains is not an
 * agent's.
 */
export function gateChangeSource(before: GateDefinition, now: GateDefinition, root: string): GateChangeSource {
  const configured = before.gates.some((g) => now.gates.find((n) => n.name === g.name)?.command !== g.command);
  if (!configured) return "agent";
  const scripts = packageScripts(root);
  const underRecordedCommands: GateDefinition = {
    ...now,
    gates: before.gates.map((g) => ({ name: g.name, command: g.command, scripts: scriptsRun(g.command, scripts) })),
  };
  return diffGateDefinition(before, underRecordedCommands).length ? "both" : "configuration";
}

const WHO: Record<GateChangeSource, string> = {
  configuration: "The gate's configuration (its command in yolo.config.ts or on the command line) changed",
  agent: "An agent changed",
  both: "The gate's configuration (its command in yolo.config.ts or on the command line) and an agent changed",
};

const UNTIL: Record<GateChangeSource, string> = {
  configuration: "the configuration is put back",
  agent: "it is reverted",
  both: "both are put back",
};

/** The question a human answers about a gate change: who made it, what it is, and what each answer does. */
export function gateChangeQuestion(source: GateChangeSource, changes: string[], since: "the baseline" | "the last approval"): string {
  const what = changes.length === 1 ? changes[0] : `${changes.length} changes`;
  const when = source === "agent" ? "" : ` since ${since}`;
  return `${WHO[source]} what defines the gate${when} (${what}). Approve to accept the changed gate from now on, or reject to keep the original: the change then blocks until ${UNTIL[source]}.`;
}
