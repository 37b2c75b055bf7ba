import { describe, expect, it } from "vitest";
import { compileMatcher } from "../../../src/config/hooks-schema.js";
import { matchesTool } from "../../../src/hooks/matcher.js";

const match = (matcher: string | undefined) => {
  const compiled = compileMatcher(matcher);
  if ("error" in compiled) throw new Error(compiled.error);
  return compiled.match;
};

describe("hook matchers read as Claude Code reads them", () => {
  it("absent, empty and * match everything", () => {
    for (const m of [undefined, "", "*"]) expect(match(m)("anything")).toBe(true);
  });

  it("plain names and |-lists are exact: write_file does not match write_file_2 or rewrite_file", () => {
    const m = match("write_file|edit_file");
    expect(["write_file", "edit_file", "write_file_2", "rewrite_file", "write"].map(m)).toEqual([true, true, false, false, false]);
  });

  it("anything else is a regular expression", () => {
    expect(match("mcp__.*")("mcp__github__create_issue")).toBe(true);
    expect(match("^run_")("run_command")).toBe(true);
    expect(match("^run_")("dev_run_x")).toBe(false);
  });

  it("an invalid expression is an error, not a matcher that matches nothing", () => {
    expect(compileMatcher("([")).toEqual({ error: expect.stringContaining("Invalid regular expression") });
  });

  it("a matcher written for Claude Code's tool names finds yolo's tools", () => {
    expect(matchesTool(match("Bash"), "run_command")).toBe(true);
    expect(matchesTool(match("Write|Edit"), "edit_file")).toBe(true);
    expect(matchesTool(match("Bash"), "write_file")).toBe(false);
    expect(matchesTool(match("Bash"), "mcp__x__Bash")).toBe(false);
  });
});
