import { Box, Text } from "ink";
import { formatCost, formatCountShort, formatDuration } from "../format.js";
import type { ViewState } from "../view-state.js";

export interface HeaderProps {
  state: ViewState;
  /** Epoch ms used for the elapsed time while the run is going. */
  now: number;
}

/**
 * Thread, model, elapsed time, tokens, cost (only with a configured `model.price`: yolo does not guess one)
 * and the fix attempt (of a workflow run); the requirement, or a follow-up's message, on one line below.
 */
export function Header({ state, now }: HeaderProps) {
  const end = state.endedAt ?? now;
  const elapsed = state.startedAt === null ? "" : formatDuration(end - state.startedAt);
  // An agent or chat thread has no gate to send work back.
  const fix = state.maxFixAttempts === null || state.mode !== "run" ? "" : `fix ${state.fixAttempt}/${state.maxFixAttempts}`;
  const facts = state.thread
    ? [state.thread, state.model, elapsed, `${formatCountShort(state.tokens)} tokens`, formatCost(state.cost), fix].filter(Boolean)
    : ["starting…"];
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>yolo</Text>
        {state.resumed ? " (resumed)" : ""} · {facts.join(" · ")}
      </Text>
      <Text wrap="truncate-end" dimColor>
        {state.requirement || " "}
      </Text>
    </Box>
  );
}
