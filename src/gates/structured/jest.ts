import { jestRetried, readJestShapedJson } from "./jest-json.js";
import { seeCommand, shellWord, startsWithRunner } from "./script.js";
import type { StructuredRunner } from "./types.js";

/** jest: `--json --outputFile` writes its report to the file and keeps its usual output (on stderr) for the user. */
export const jestRunner: StructuredRunner = {
  runner: "jest",
  command(command, scripts, reportPath) {
    const seen = seeCommand(command, scripts);
    if (!seen || !startsWithRunner(seen.line, "jest") || /--(?:json|outputFile|watch|watchAll)\b/.test(seen.line)) return null;
    return seen.withFlags(`--json --outputFile=${shellWord(reportPath)}`);
  },
  read: (text, root) => readJestShapedJson(text, root, jestRetried),
};
