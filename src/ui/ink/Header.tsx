import { Box, Text } from "ink";
import { formatCountShort, formatDuration } from "../format.js";
import type { ViewState } from "../view-state.js";

export interface HeaderProps {
  state: ViewState;
  /** Epoch ms used for the elapsed time while the run is going. */
  now: number;
}

/** Thread, model, elapsed time and tokens; the requirement on one line below. */
export function Header({ state, now }: HeaderProps) {
  const end = state.endedAt ?? now;
  const elapsed = state.startedAt === null ? "" : formatDuration(end - state.startedAt);
  const facts = state.thread
    ? [state.thread, state.model, elapsed, `${formatCountShort(state.tokens)} tokens`].filter(Boolean)
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
