import { Box, Text } from "ink";
import { memo } from "react";
import { formatCountShort } from "../format.js";
import type { AgentStatus, AgentView, ToolCallView } from "../view-state.js";
import { ToolLine } from "./ToolLine.js";

export interface AgentRowProps {
  agent: AgentView;
  /** The current spinner frame, shown while the agent runs. */
  spinner: string;
  /** Columns for the agent's name. */
  nameWidth?: number;
  /** The tail of the agent's streamed text, shown under the row while it runs. */
  stream?: string[];
  /** The gate command the agent's node is running now, shown instead of "running". */
  gateCommand?: string;
  /** Its latest tool calls, shown under the text while it runs. */
  tools?: ToolCallView[];
  verbose?: boolean;
}

const MARKS: Record<Exclude<AgentStatus, "running">, { mark: string; color?: string }> = {
  waiting: { mark: "·" },
  done: { mark: "✓", color: "green" },
  skipped: { mark: "–" },
  blocked: { mark: "✗", color: "red" },
  escalated: { mark: "?", color: "yellow" },
  stopped: { mark: "■", color: "yellow" },
};

// What the row says after the agent's name.
function detail(a: AgentView, gateCommand?: string): string {
  switch (a.status) {
    case "running": {
      const what = gateCommand ? `running ${gateCommand}` : "running";
      return a.fixAttempt > 0 ? `${what} · fix attempt ${a.fixAttempt}` : what;
    }
    case "done":
      return a.summary || "done";
    case "blocked":
      return a.summary || "blocked";
    case "escalated":
      return "asked a question";
    case "stopped":
      return "stopped before finishing; runs again on resume";
    default:
      return a.status;
  }
}

/**
 * One agent: status mark, name, and its summary or state; its live text and tool calls below while it runs.
 * Memoized: under a token flood only the running agent's row changes between frames.
 */
export const AgentRow = memo(function AgentRow({ agent, spinner, nameWidth = 11, stream = [], gateCommand, tools = [], verbose = false }: AgentRowProps) {
  const { mark, color } = agent.status === "running" ? { mark: spinner, color: "cyan" } : MARKS[agent.status];
  const tokens = verbose && agent.tokens > 0 ? ` · ${formatCountShort(agent.tokens)} tok` : "";
  return (
    <Box flexDirection="column">
      <Box>
        <Box width={2} flexShrink={0}>
          <Text color={color}>{mark}</Text>
        </Box>
        <Box width={nameWidth} flexShrink={0}>
          <Text wrap="truncate-end" bold={agent.status === "running"}>
            {agent.id}
          </Text>
        </Box>
        <Box flexGrow={1} flexShrink={1}>
          <Text wrap="truncate-end" dimColor={agent.status !== "running"}>
            {detail(agent, gateCommand) + tokens}
          </Text>
        </Box>
      </Box>
      {stream.map((line, i) => (
        // The bar is a Text of its own: the model's text is usually ASCII, which Ink measures on a fast path,
        // while one non-ASCII character sends the whole line, every frame, through grapheme segmentation.
        <Box key={i} paddingLeft={4}>
          <Box width={2} flexShrink={0}>
            <Text dimColor>│</Text>
          </Box>
          <Text wrap="truncate-end" dimColor>
            {line || " "}
          </Text>
        </Box>
      ))}
      {tools.length ? (
        <Box flexDirection="column" paddingLeft={4}>
          {tools.map((t) => (
            <ToolLine key={t.callId} tool={t} spinner={spinner} />
          ))}
        </Box>
      ) : null}
    </Box>
  );
});
