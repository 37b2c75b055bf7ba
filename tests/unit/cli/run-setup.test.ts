import { describe, expect, it } from "vitest";
import { isUnattended, resumeArgs, shellQuote } from "../../../src/cli/run-setup.js";

describe("unattended runs and the printed resume command", () => {
  it("is unattended with --ci or with CI set to anything", () => {
    expect(isUnattended({ ci: true }, {})).toBe(true);
    expect(isUnattended({}, { CI: "true" })).toBe(true);
    expect(isUnattended({}, { CI: "1" })).toBe(true);
    expect(isUnattended({}, { CI: "" })).toBe(false);
    expect(isUnattended({}, {})).toBe(false);
  });

  it("repeats the options a resume needs to find the thread and reach the same model, quoted for a shell", () => {
    expect(resumeArgs({})).toBe("");
    expect(resumeArgs({ json: true, ci: true, branch: true })).toBe("");
    expect(resumeArgs({ db: "ci.db", replay: "examples/a b/session.jsonl", model: "qwen2.5-coder:14b", baseUrl: "http://localhost:11434/v1" })).toBe(
      " --db ci.db --model qwen2.5-coder:14b --base-url http://localhost:11434/v1 --replay 'examples/a b/session.jsonl'",
    );
    expect(resumeArgs({ record: "it's.jsonl" })).toBe(` --record 'it'\\''s.jsonl'`);
    expect(resumeArgs({ testCmd: "pytest -q tests/" })).toBe(" --test-cmd 'pytest -q tests/'");
  });

  it("quotes only what a shell would split or expand", () => {
    expect(shellQuote("a/b-c_d.e")).toBe("a/b-c_d.e");
    expect(shellQuote("$HOME")).toBe("'$HOME'");
  });
});
