import { Box, Text } from "ink";
import { memo } from "react";
import type { GateResult } from "../../events/schema.js";
import { gateBlocks, judgementNotes } from "../../events/judgement-words.js";
import { gateHeadline, oneLine } from "../format.js";

export interface GateListProps {
  gates: { node: string; gate: GateResult }[];
  /** Failing test names shown under a failing gate. */
  maxFailures?: number;
}

/**
 * The latest result of each quality gate, with what the comparison with the baseline found (gate change,
 * regressions, pre-existing failures) or else the first failing tests' names under a failing one.
 */
export const GateList = memo(function GateList({ gates, maxFailures = 3 }: GateListProps) {
  if (!gates.length) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {gates.map(({ gate }) => {
        const notes = judgementNotes(gate, maxFailures);
        const failures = gate.passed || notes.length ? [] : gate.failures.slice(0, maxFailures);
        const more = gate.passed || notes.length ? 0 : gate.failures.length - failures.length;
        const blocks = gateBlocks(gate);
        const ok = gate.passed && !blocks;
        return (
          <Box key={gate.name} flexDirection="column">
            <Box>
              <Box width={2} flexShrink={0}>
                <Text color={ok ? "green" : blocks ? "red" : "yellow"}>{ok ? "✓" : "✗"}</Text>
              </Box>
              <Text wrap="truncate-end">gate {gateHeadline(gate)}</Text>
            </Box>
            {notes.map((note, i) => (
              <Box key={`n${i}`} paddingLeft={4}>
                <Text wrap="truncate-end" color={blocks ? "red" : "yellow"}>
                  {oneLine(note)}
                </Text>
              </Box>
            ))}
            {failures.map((name, i) => (
              <Box key={i} paddingLeft={4}>
                <Text wrap="truncate-end" color="red">
                  ✗ {oneLine(name)}
                </Text>
              </Box>
            ))}
            {more > 0 ? (
              <Box paddingLeft={4}>
                <Text dimColor>… {more} more</Text>
              </Box>
            ) : null}
          </Box>
        );
      })}
    </Box>
  );
});
