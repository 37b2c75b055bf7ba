import { Box, Text } from "ink";
import type { ToolCallView } from "../view-state.js";

export interface ToolLineProps {
  tool: ToolCallView;
  /** The current spinner frame, shown while the call runs. */
  spinner: string;
}

// "write_file src/add.js (+3 −0)", "read_file nope.txt: ENOENT…", "run_command npm test" (in flight).
function describe(t: ToolCallView): string {
  if (t.ok === null) return `${t.tool} ${t.args}`;
  if (t.ok) return `${t.tool} ${t.summary || t.args}`;
  return `${t.tool}${t.args ? ` ${t.args}` : ""}${t.summary ? `: ${t.summary}` : ""}`;
}

/** One tool call of the running agent, with its result summary once it has one. */
export function ToolLine({ tool, spinner }: ToolLineProps) {
  const mark = tool.ok === null ? spinner : tool.ok ? "✓" : "✗";
  return (
    <Box>
      <Box width={2} flexShrink={0}>
        <Text color={tool.ok === null ? "cyan" : tool.ok ? "green" : "red"}>{mark}</Text>
      </Box>
      <Text wrap="truncate-end">{describe(tool)}</Text>
    </Box>
  );
}
