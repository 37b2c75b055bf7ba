import { Box, Text } from "ink";
import type { QuestionView } from "../view-state.js";
import { AnswerInput } from "./AnswerInput.js";

/** Where the inline answer stands: being typed, given (the run resumes), or left for later. */
export type AnswerState = { kind: "open" } | { kind: "answered"; text: string } | { kind: "declined" };

export interface QuestionProps {
  question: QuestionView;
  /** Asked inline: an input instead of the command that answers it later. */
  inline: boolean;
  answer: AnswerState;
  /** The answer typed so far. */
  draft: string;
}

/** The question an agent escalated, in full, with an inline input or the command that answers it. */
export function Question({ question, inline, answer, draft }: QuestionProps) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate-end" color="yellow" bold>
        ? {question.askedBy} asks:
      </Text>
      <Box paddingLeft={2}>
        <Text wrap="wrap">{question.question}</Text>
      </Box>
      {inline && answer.kind === "open" ? (
        <>
          <AnswerInput value={draft} />
          <Text wrap="truncate-end" dimColor>
            Enter answers and the run goes on · empty Enter or Ctrl+C answers later
          </Text>
        </>
      ) : null}
      {answer.kind === "answered" ? (
        <>
          <Text wrap="wrap">
            <Text color="cyan">› </Text>
            {answer.text}
          </Text>
          <Text dimColor>resuming…</Text>
        </>
      ) : null}
      {!inline ? <Text wrap="wrap">Answer with: {question.resumeCommand}</Text> : null}
    </Box>
  );
}
