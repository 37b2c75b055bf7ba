import { RequestError, type SessionModeState } from "@agentclientprotocol/sdk";

/** How much a session's runs do before asking: the editor switches it with `session/set_mode`. */
export type PermissionMode = "auto" | "ask" | "plan";

/**
 * A new session starts in auto mode, as the CLI runs: the sandbox and the quality gate are the guard, every edit is
 * shown as it is made (with its diff), and a workflow makes too many edits for asking about each to help.
 */
export const START_MODE: PermissionMode = "auto";

const MODES: { id: PermissionMode; name: string; description: string }[] = [
  { id: "auto", name: "Auto", description: "Agents edit and run commands in the sandbox; the gate judges the change" },
  {
    id: "ask",
    name: "Ask",
    description: "Each file edit (with its diff), and each command when there is no sandbox, waits for your approval; a rejection goes back to the agent",
  },
  { id: "plan", name: "Plan", description: "Agents work up to the plan (the pm's stories), then wait for your approval before any code" },
];

/** The modes as `session/new` and `session/load` offer them. */
export function modeState(current: PermissionMode): SessionModeState {
  return { currentModeId: current, availableModes: MODES };
}

/** The mode `session/set_mode` names, or an invalid-params error listing the ones there are. */
export function parseMode(id: string): PermissionMode {
  const mode = MODES.find((m) => m.id === id);
  if (!mode) throw RequestError.invalidParams({ modeId: id }, `no mode "${id}"; the modes are ${MODES.map((m) => m.id).join(", ")}`);
  return mode.id;
}
