import { Box, Text } from "ink";
import { formatCount, truncateEnd } from "../format.js";
import type { FinalView } from "../view-state.js";

export interface FinalSummaryProps {
  final: FinalView;
  elapsed: string;
  /** False when the question block above already shows the same command. */
  showResume?: boolean;
}

/** How the run ended: status, reason, files changed, tokens, and the resume command if any. */
export function FinalSummary({ final, elapsed, showResume = true }: FinalSummaryProps) {
  const ok = final.status === "passed";
  const mark = ok ? "✔" : final.status === "waiting" ? "?" : "✗";
  const color = ok ? "green" : final.status === "waiting" ? "yellow" : "red";
  const files = final.filesChanged.length
    ? `files changed (${final.filesChanged.length}): ${final.filesChanged.join(", ")}`
    : "no files changed";
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate-end" color={color} bold>
        {mark} {final.status} (exit {final.exitCode}){elapsed ? ` in ${elapsed}` : ""}
      </Text>
      {final.reason ? <Text wrap="truncate-end">{truncateEnd(final.reason, 400)}</Text> : null}
      <Text wrap="truncate-end" dimColor>
        {files}
      </Text>
      <Text wrap="truncate-end" dimColor>
        tokens {formatCount(final.usage.totalTokens)} in {final.usage.calls} model calls
      </Text>
      {showResume && final.resumeCommand !== null ? <Text wrap="wrap">resume: {final.resumeCommand}</Text> : null}
    </Box>
  );
}
