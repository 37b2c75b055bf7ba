import { parseAva } from "./parsers/ava.js";
import { parseCargoTest } from "./parsers/cargo.js";
import { parseGoTest } from "./parsers/go.js";
import { parseJest } from "./parsers/jest.js";
import { parseMocha } from "./parsers/mocha.js";
import { parseNodeSpec } from "./parsers/node-spec.js";
import { parsePytest } from "./parsers/pytest.js";
import { parseTap } from "./parsers/tap.js";
import { parseUnittest } from "./parsers/unittest.js";
import type { OutputParser, TestCounts } from "./parsers/types.js";
import { parseUvu } from "./parsers/uvu.js";
import { parseVitest } from "./parsers/vitest.js";

export type { TestCounts } from "./parsers/types.js";

/** Most specific summary shapes first, so one runner's summary is not mistaken for another's. */
const PARSERS: Array<[string, OutputParser]> = [
  ["vitest", parseVitest],
  ["jest", parseJest],
  ["node:test", parseNodeSpec],
  ["TAP", parseTap],
  ["mocha", parseMocha],
  ["ava", parseAva],
  ["uvu", parseUvu],
  ["pytest", parsePytest],
];
// Go, cargo and unittest print shapes none of the above recognise; they come last so they never shadow them.
PARSERS.push(["go test", parseGoTest], ["cargo test", parseCargoTest], ["unittest", parseUnittest]);

// Colours are disabled for gate commands, but a runner that forces them must not defeat the parsers.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * Best-effort reading of a test run's output (vitest, jest, node --test, mocha, pytest): passed and failed
 * counts and the first failing tests' names. Unknown output gives null counts, never an error.
 */
export function parseTestOutput(output: string): TestCounts {
  return readTestOutput(output).counts;
}

/** `parseTestOutput`, also naming the runner whose output it recognized (`vitest`, `jest`, `TAP`…), null when none. */
export function readTestOutput(output: string): { counts: TestCounts; runner: string | null } {
  const text = output.replace(ANSI, "").replace(/\r\n?/g, "\n");
  for (const [runner, parse] of PARSERS) {
    const counts = parse(text);
    if (counts) return { counts, runner };
  }
  return { counts: { passedCount: null, failedCount: null, failures: [] }, runner: null };
}
