import { Box, Text } from "ink";
import { formatCountShort } from "../format.js";
import type { AgentStatus, AgentView } from "../view-state.js";

export interface AgentRowProps {
  agent: AgentView;
  /** The current spinner frame, shown while the agent runs. */
  spinner: string;
  /** The tail of the agent's streamed text, shown under the row while it runs. */
  stream?: string[];
  verbose?: boolean;
}

const MARKS: Record<Exclude<AgentStatus, "running">, { mark: string; color?: string }> = {
  waiting: { mark: "·" },
  done: { mark: "✓", color: "green" },
  skipped: { mark: "–" },
  blocked: { mark: "✗", color: "red" },
  escalated: { mark: "?", color: "yellow" },
};

// What the row says after the agent's name.
function detail(a: AgentView): string {
  switch (a.status) {
    case "running":
      return a.fixAttempt > 0 ? `running · fix attempt ${a.fixAttempt}` : "running";
    case "done":
      return a.summary || "done";
    case "escalated":
      return "asked a question";
    default:
      return a.status;
  }
}

/** One agent: status mark, name, and its summary or state; its live text below while it runs. */
export function AgentRow({ agent, spinner, stream = [], verbose = false }: AgentRowProps) {
  const { mark, color } = agent.status === "running" ? { mark: spinner, color: "cyan" } : MARKS[agent.status];
  const tokens = verbose && agent.tokens > 0 ? ` · ${formatCountShort(agent.tokens)} tok` : "";
  return (
    <Box flexDirection="column">
      <Box>
        <Box width={2} flexShrink={0}>
          <Text color={color}>{mark}</Text>
        </Box>
        <Box width={11} flexShrink={0}>
          <Text wrap="truncate-end" bold={agent.status === "running"}>
            {agent.id}
          </Text>
        </Box>
        <Box flexGrow={1} flexShrink={1}>
          <Text wrap="truncate-end" dimColor={agent.status !== "running"}>
            {detail(agent) + tokens}
          </Text>
        </Box>
      </Box>
      {stream.map((line, i) => (
        <Box key={i} paddingLeft={4}>
          <Text wrap="truncate-end" dimColor>
            │ {line || " "}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
