import { Box, Text } from "ink";
import type { GateResult } from "../../events/schema.js";
import { gateLine } from "../format.js";

export interface GateListProps {
  gates: { node: string; gate: GateResult }[];
}

/** The latest result of each quality gate. */
export function GateList({ gates }: GateListProps) {
  if (!gates.length) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {gates.map(({ gate }) => (
        <Box key={gate.name}>
          <Box width={2} flexShrink={0}>
            <Text color={gate.passed ? "green" : gate.required ? "red" : "yellow"}>{gate.passed ? "✓" : "✗"}</Text>
          </Box>
          <Text wrap="truncate-end">gate {gateLine(gate)}</Text>
        </Box>
      ))}
    </Box>
  );
}
