// Regenerates session.jsonl beside this file by really running yolo with --record against a scripted
// OpenAI-compatible server (tests/helpers/mock-openai.ts) in a throwaway copy of project/.
//
//   npm run build && node examples/add-numbers/record.mjs [--out <file>]
//
// Run it again whenever prompts, agents or tool schemas change: a replay of a session recorded before the
// change stops with "replay mismatch", naming the agent and the first difference.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createJiti } from "jiti";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const outArg = process.argv.indexOf("--out");
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(here, "session.jsonl");
const requirement = readFileSync(join(here, "requirement.txt"), "utf8").trim();

const jiti = createJiti(import.meta.url);
const { startMockOpenAI } = await jiti.import(join(repo, "tests/helpers/mock-openai.ts"));
const { call, director, handoff } = await jiti.import(join(repo, "tests/helpers/director.ts"));

const ADD = "/** The sum of two numbers. */\nexport function add(a, b) {\n  return a + b;\n}\n";

// What each agent "says": the scripted model turns, in order per agent.
const script = director({
  analyst: [
    handoff({
      requirements:
        "# add(a, b)\n\n`src/add.js` must export a function `add(a, b)` that returns the sum of its two numeric arguments. " +
        "The existing tests in `test/add.test.js` already describe it.",
      acceptance_criteria: ["add(2, 3) returns 5", "add(-1, 1) returns 0", "npm test passes"],
    }),
  ],
  pm: [
    handoff({
      stories: [
        {
          title: "Add two numbers",
          as_a: "a developer using this package",
          i_want: "an add(a, b) function exported from src/add.js",
          so_that: "I can sum two numbers without writing it myself",
          acceptance_criteria: ["add(2, 3) returns 5", "add(-1, 1) returns 0"],
        },
      ],
      needs_architecture: true,
    }),
  ],
  architect: [
    handoff({
      decisions: [
        {
          title: "ES module with a named export",
          decision: "src/add.js is an ES module exporting `add` by name",
          rationale: "package.json declares type: module and the tests import { add } from ../src/add.js",
        },
      ],
    }),
  ],
  dev: [
    call("read_file", { path: "test/add.test.js" }),
    call("write_file", { path: "src/add.js", content: ADD }),
    handoff({ summary: "Added src/add.js exporting add(a, b), which returns a + b.", files_changed: ["src/add.js"] }),
  ],
  tea: [
    handoff({
      verdict: "PASS",
      findings: ["Both acceptance criteria are covered by test/add.test.js", "The gate (npm test) passes"],
    }),
  ],
});

const mock = await startMockOpenAI(script);
const work = realpathSync(mkdtempSync(join(tmpdir(), "yolo-example-")));
try {
  cpSync(join(here, "project"), work, { recursive: true });
  const git = (...args) => promisify(execFile)("git", ["-c", "user.name=example", "-c", "user.email=example@localhost", ...args], { cwd: work });
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-qm", "add-numbers: tests for add(a, b)");
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: mock.url };
  const run = await promisify(execFile)(process.execPath, [join(repo, "bin/yolo.js"), "run", "--json", "--record", out, requirement], { cwd: work, env }).catch(
    (error) => error,
  );
  if (run.code) {
    process.stderr.write(`yolo exited ${run.code}\n${run.stdout}\n${run.stderr}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`recorded ${mock.requests.length} model calls (${script.served.join(", ")}) to ${out}\n`);
  }
} finally {
  await mock.close();
  rmSync(work, { recursive: true, force: true });
}
