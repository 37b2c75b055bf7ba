import { composePrompt, MODES, type Mode } from "../prompt/compose.js";
import { asRole } from "../roles/registry.js";
import { TOOLS } from "../tools/registry.js";
import type { MiddlewareState } from "./types.js";

/**
 * Step 2: the system prompt by mode and phase. An unknown or missing mode falls back to `chat` with a warning.
 * The tool-policy layer is written for the agent's whole allow-list here; the tool selector narrows it.
 */
export function workflowRouter(state: MiddlewareState): MiddlewareState {
  const known = (MODES as readonly string[]).includes(state.requestedMode ?? "");
  const mode: Mode = known ? (state.requestedMode as Mode) : "chat";
  const warnings = known ? state.warnings : [...state.warnings, `unknown or missing mode ${JSON.stringify(state.requestedMode ?? null)}; falling back to chat`];
  const { run } = state;
  const completed = state.runCompleted === true;
  const phase = { node: state.node, fixAttempt: run.gateBlocked && !asRole(state.role).judgesGates ? run.fixAttempts : 0, completed };
  const prompt = composePrompt({
    role: state.role,
    node: state.node,
    agentId: state.agentId,
    pipeline: [...state.pipeline],
    flags: [...state.flags],
    persona: state.agent.persona,
    tools: state.agent.tools.map((name) => TOOLS[name]),
    state: run,
    maxFixAttempts: state.settings.maxFixAttempts,
    limits: state.settings.limits,
    projectSummary: state.projectSummary ?? null,
    mode,
    runCompleted: completed,
    userInput: state.userInput,
    earlierTurns: state.earlierTurns,
  });
  return { ...state, mode, phase, prompt, warnings };
}
