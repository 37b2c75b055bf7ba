import { Text } from "ink";

export interface AnswerInputProps {
  /** The line typed so far (the view reads the keys: see App). */
  value: string;
}

/** The one-line answer being typed, with a block cursor. */
export function AnswerInput({ value }: AnswerInputProps) {
  return (
    <Text wrap="wrap">
      <Text color="cyan">› </Text>
      {value}
      <Text inverse> </Text>
    </Text>
  );
}
