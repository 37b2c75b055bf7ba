import { Box, Text } from "ink";
import type { ToolCallView } from "../view-state.js";

export interface ToolLogProps {
  tools: ToolCallView[];
}

// "✓ write_file src/add.js (+3 −0)", "✗ read_file nope.txt: ENOENT…", "… read_file package.json".
function describe(t: ToolCallView): string {
  if (t.ok === null) return `${t.tool} ${t.args}`;
  if (t.ok) return `${t.tool} ${t.summary || t.args}`;
  return `${t.tool}${t.args ? ` ${t.args}` : ""}${t.summary ? `: ${t.summary}` : ""}`;
}

/** The last few tool calls with their result summaries. */
export function ToolLog({ tools }: ToolLogProps) {
  if (!tools.length) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {tools.map((t) => (
        <Box key={t.callId}>
          <Box width={2} flexShrink={0}>
            <Text color={t.ok === null ? "cyan" : t.ok ? "green" : "red"}>{t.ok === null ? "…" : t.ok ? "✓" : "✗"}</Text>
          </Box>
          <Text wrap="truncate-end">{describe(t)}</Text>
        </Box>
      ))}
    </Box>
  );
}
