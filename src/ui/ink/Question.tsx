import { Box, Text } from "ink";
import type { QuestionView } from "../view-state.js";

export interface QuestionProps {
  question: QuestionView;
}

/** The question an agent escalated, in full, and how to answer it. */
export function Question({ question }: QuestionProps) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate-end" color="yellow" bold>
        ? {question.askedBy} asks:
      </Text>
      <Box paddingLeft={2}>
        <Text wrap="wrap">{question.question}</Text>
      </Box>
      <Text wrap="wrap">Answer with: {question.resumeCommand}</Text>
    </Box>
  );
}
