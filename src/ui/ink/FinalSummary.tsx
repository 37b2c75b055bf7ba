import { Box, Text } from "ink";
import { exitMeaning, fitList, oneLine, statusWords, tokensLine, wrapText, type RunMode } from "../format.js";
import type { FinalView } from "../view-state.js";

export interface FinalSummaryProps {
  final: FinalView;
  elapsed: string;
  /** Columns available, for the list of changed files and the wrapped reason. */
  width: number;
  /** False when the question block above already shows the same command. */
  showResume?: boolean;
  /** An agent or chat thread "answered" rather than passed a gate. */
  mode?: RunMode;
}

/** How the run ended: status and what its exit code means, the reason, files changed, tokens, the resume command. */
export function FinalSummary({ final, elapsed, width, showResume = true, mode = "run" }: FinalSummaryProps) {
  const ok = final.status === "passed";
  const mark = ok ? "✔" : final.status === "waiting" ? "?" : final.status === "interrupted" ? "■" : "✗";
  const color = ok ? "green" : final.status === "waiting" || final.status === "interrupted" ? "yellow" : "red";
  const files = final.filesChanged.length
    ? fitList(`files changed (${final.filesChanged.length}): `, final.filesChanged.map(oneLine), Math.max(20, width - 1))
    : "no files changed";
  const u = final.usage;
  const meaning = exitMeaning(final.status, final.limit, mode, final.reason);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate-end" color={color} bold>
        {mark} {statusWords(final.status, final.limit, mode, final.reason)} (exit {final.exitCode}){elapsed ? ` in ${elapsed}` : ""}
        {meaning ? ` — ${meaning}` : ""}
      </Text>
      {/* The reason is what to do next (which limit, which server): this frame stays, so it is shown whole. */}
      {final.reason ? wrapText(final.reason, Math.max(20, width)).map((line, i) => <Text key={i}>{line}</Text>) : null}
      <Text wrap="truncate-end">{files}</Text>
      <Text wrap="truncate-end" dimColor>
        {tokensLine(u)}
      </Text>
      {showResume && final.resumeCommand !== null ? <Text wrap="wrap">resume: {final.resumeCommand}</Text> : null}
    </Box>
  );
}
