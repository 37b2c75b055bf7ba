import { describe, expect, it, onTestFinished } from "vitest";
import { describeResult, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, handoff, teaSays } from "../helpers/director.js";
import { mockWith } from "../helpers/per-test.js";
import { makeProject } from "../helpers/project.js";

// A hostile model writes terminal escapes into every handoff field that `yolo show` and `yolo report` print:
// none reaches the output raw; each is shown as its visible escape instead.

const OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07";
const CLEAR = "\x1b[2J\x1b[3J\x1b[H";
const TITLE = "\x1b]0;sudo password:\x07";
const LINK = "\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\";
const C1 = "\x9b2J\x9d0;t\x9c";
const ALL = `${OSC52}${CLEAR}${TITLE}${LINK}\x07 lone \x1b and ${C1} \u202egnp.exe`;
const RAW = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe("show and report print model text safely", { timeout: 240_000 }, () => {
  it("escapes OSC 52, screen clears, titles, OSC 8 links, BEL, a lone ESC, C1 controls and bidi overrides in every format", async () => {
    const project = makeProject();
    onTestFinished(project.cleanup);
    const story = { title: `Add ${ALL}`, as_a: "developer", i_want: `add ${ALL}`, so_that: "sums", acceptance_criteria: [`ok ${ALL}`] };
    const mock = await mockWith(
      onTestFinished,
      director({
        analyst: [analystDone],
        pm: [handoff({ stories: [story], needs_architecture: true })],
        architect: [handoff({ decisions: [{ title: `Module ${ALL}`, decision: `ES ${ALL}`, rationale: `because ${ALL}` }] })],
        dev: [devWrites(GOOD_ADD)[0], handoff({ summary: `wrote ${ALL}`, files_changed: ["src/add.js"] })],
        tea: [teaSays("PASS", [`finding ${ALL}`])],
      }),
    );
    const cwd = project.root;
    const run = await runYolo(["run", "--ci", "--json", "Add add(a, b)"], { cwd, baseURL: mock.url });
    expect(run.exitCode, describeResult(run)).toBe(0);
    const thread = threadIdFrom(run.stdout);

    const outputs = {
      show: await runYolo(["show", thread], { cwd }),
      "show --json": await runYolo(["show", thread, "--json"], { cwd }),
      "report markdown": await runYolo(["report", thread, "--format", "markdown"], { cwd }),
      "report junit": await runYolo(["report", thread, "--format", "junit"], { cwd }),
    };
    for (const [name, out] of Object.entries(outputs)) {
      expect(out.exitCode, `${name}: ${describeResult(out)}`).toBe(0);
      const raw = RAW.exec(out.stdout);
      expect(raw, `${name} printed U+${raw?.[0].charCodeAt(0).toString(16)} raw`).toBeNull();
    }
    // The text is there, made visible: the test would pass on output that dropped the fields altogether otherwise.
    for (const name of ["show", "report markdown"] as const) {
      expect(outputs[name].stdout).toContain("finding \\x1b]52;c;cm0gLXJmIH4=\\x07");
      expect(outputs[name].stdout).toContain("\\x9b2J");
      expect(outputs[name].stdout).toContain("\\u202egnp.exe");
    }
    expect(outputs.show.stdout).toContain("- Add \\x1b]52");
    expect(outputs.show.stdout).toContain("Module \\x1b]52");
    const json = JSON.parse(outputs["show --json"].stdout);
    expect(JSON.stringify(json)).toContain(JSON.stringify(`finding ${ALL}`).slice(1, 20));
  });
});
