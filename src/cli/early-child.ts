// The process bin/yolo.js starts for a run's or resume's first git reads (see early-reads.ts), built on its own as
// dist/cli/early-child.cjs. Arguments: the project root and "start" or "resume". It ends when it has answered, or as
// soon as yolo has gone (its stdin closes), leaving no read to finish for nobody.
import { stopTrials } from "../exec/sandbox.js";
import { answerEarlyReads } from "./early-reads.js";

const [root, mode] = process.argv.slice(2);
if (root && (mode === "start" || mode === "resume")) {
  // Exits once the last answer is flushed (a pipe's writes are asynchronous on some systems).
  answerEarlyReads(root, mode, (line) => process.stdout.write(line)).then(() => process.stdout.write("", () => process.exit(0)));
  // Watched once the first git commands are under way: making process.stdin a stream costs time (docs/performance.md).
  process.stdin.on("end", () => {
    // yolo has gone or let this process go: a bubblewrap trial still running is not left behind.
    stopTrials();
    process.exit(0);
  });
  process.stdin.resume();
} else {
  process.exitCode = 2;
}
