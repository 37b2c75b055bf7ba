import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";
import { ConfigError } from "../errors.js";

// Apart from human-input.ts so that a run without --answers loads neither the YAML parser nor zod for it.

/** A reply text that is more than whitespace: an empty one fails closed like a missing one. */
const nonBlank = (what: string) => z.string().refine((s) => s.trim() !== "", { message: `${what} is empty` });

const answerEntry = z
  .strictObject({
    node: z.string().min(1),
    question: z.string().min(1).optional(),
    answer: nonBlank("the answer").optional(),
    approve: z.literal(true).optional(),
    reject: nonBlank("the reason").optional(),
    edit: nonBlank("the edited artifact").optional(),
  })
  .refine((e) => [e.answer, e.approve, e.reject, e.edit].filter((v) => v !== undefined).length === 1, {
    message: "give exactly one of answer, approve, reject, edit",
  });
export type AnswerEntry = z.output<typeof answerEntry>;

/** Reads an `--answers` file (YAML or JSON list); every problem is reported with its index. */
export function loadAnswers(file: string): AnswerEntry[] {
  let value: unknown;
  try {
    value = parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigError(`Cannot read the answers file ${file}: ${(error as Error).message}`);
  }
  const parsed = z.array(answerEntry).safeParse(value);
  if (!parsed.success) {
    throw new ConfigError(
      `The answers file ${file} is invalid:`,
      parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
    );
  }
  return parsed.data;
}
