import { readJestShapedJson, vitestRetried } from "./jest-json.js";
import { seeCommand, shellWord, startsWithRunner } from "./script.js";
import type { StructuredRunner } from "./types.js";

/**
 * vitest: its `json` reporter beside the reporter the user sees (`default`, or the one the script names). A script
 * that already sets an output file is left alone (its own report is the user's), as is watch mode.
 */
export const vitestRunner: StructuredRunner = {
  runner: "vitest",
  command(command, scripts, reportPath) {
    const seen = seeCommand(command, scripts);
    if (!seen || !startsWithRunner(seen.line, "vitest") || /--outputFile\b|--watch\b|\bvitest\s+(?:watch|dev|bench)\b/.test(seen.line)) return null;
    const shown = /--reporter\b/.test(seen.line) ? "" : "--reporter=default ";
    return seen.withFlags(`${shown}--reporter=json --outputFile.json=${shellWord(reportPath)}`);
  },
  read: (text, root) => readJestShapedJson(text, root, vitestRetried),
};
