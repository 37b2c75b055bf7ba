import { describe, expect, it } from "vitest";
import { parseAgentFile } from "../../../src/agents/frontmatter.js";

const VALID = "name: Dev\ndescription: Writes code\ntools: [read_file, write_file]";

function file(frontmatter: string, body = "You are the developer.\n"): string {
  return `---\n${frontmatter}\n---\n${body}`;
}

function problemsOf(text: string): string[] {
  const result = parseAgentFile(text);
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.value)}`);
  return result.problems;
}

describe("parseAgentFile", () => {
  it("returns the fields and the body of a valid file", () => {
    const result = parseAgentFile(file(`${VALID}\nmodel: gpt-4.1-mini\ntemperature: 0.2\nmaxTurns: 40`, "\nYou are the developer.\n\nBe careful.\n"));
    expect(result).toEqual({
      ok: true,
      value: {
        frontmatter: {
          name: "Dev",
          description: "Writes code",
          tools: ["read_file", "write_file"],
          model: "gpt-4.1-mini",
          temperature: 0.2,
          maxTurns: 40,
        },
        body: "You are the developer.\n\nBe careful.",
      },
    });
  });

  it("accepts an empty tool list", () => {
    const result = parseAgentFile(file("name: A\ndescription: B\ntools: []"));
    expect(result.ok && result.value.frontmatter.tools).toEqual([]);
  });

  it("accepts a byte-order mark and CRLF line endings", () => {
    const text = `\uFEFF${file(VALID, "You are the developer.\nLine two.\n")}`.replace(/\n/g, "\r\n");
    const result = parseAgentFile(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.frontmatter.name).toBe("Dev");
    expect(result.value.body).toBe("You are the developer.\nLine two.");
  });

  it("accepts a file that ends right after the closing fence, with an empty body", () => {
    const result = parseAgentFile(`---\n${VALID}\n---`);
    expect(result.ok && result.value.body).toBe("");
  });

  it("rejects a file without a frontmatter block", () => {
    expect(problemsOf("You are the developer.\n")).toEqual([expect.stringMatching(/^frontmatter: missing; .*---/)]);
  });

  it("rejects a block that does not start on the very first line", () => {
    expect(problemsOf(`\n${file(VALID)}`)).toEqual([expect.stringMatching(/^frontmatter: missing/)]);
  });

  it("rejects an unterminated block", () => {
    expect(problemsOf(`---\n${VALID}\nYou are the developer.\n`)).toEqual([expect.stringMatching(/^frontmatter: not closed; add a `---` line/)]);
  });

  it("reports YAML syntax errors with the line number in the file", () => {
    // Line 1 is the opening fence, so the unclosed list on the block's third line is line 4 of the file.
    const problems = problemsOf(file("name: Dev\ndescription: Writes code\ntools: [read_file"));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^line 4, column \d+: invalid YAML: /);
  });

  it("reports a duplicated YAML key on its own line", () => {
    expect(problemsOf(file(`${VALID}\nname: Other`))).toEqual([expect.stringMatching(/^line 5, column 1: invalid YAML: .*unique/)]);
  });

  it("rejects frontmatter that is not a mapping", () => {
    expect(problemsOf(file("- read_file"))).toEqual(['frontmatter: expected fields such as "name: …", got a list']);
  });

  it("reports every missing required field of an empty block", () => {
    const problems = problemsOf("---\n---\nbody\n");
    expect(problems).toEqual([
      "name: required",
      "description: required",
      expect.stringMatching(/^tools: required \(use \[\] for no tools; known tools: read_file, /),
    ]);
  });

  it("names each unknown key, suggesting the known key a near miss was meant to be", () => {
    expect(problemsOf(file(`${VALID}\ncolour: blue\nmax_turns: 3`))).toEqual([
      "colour: unknown key; known keys: name, description, tools, model, temperature, maxTurns, handoff, capabilities",
      'max_turns: unknown key; did you mean "maxTurns"?',
    ]);
  });

  it("rejects values of the wrong type, each by its field", () => {
    const problems = problemsOf(file("name: 42\ndescription:\ntools: [read_file]\nmodel: ''\ntemperature: warm\nmaxTurns: 2.5"));
    expect(problems).toEqual([
      "name: expected a string, got the number 42",
      "description: expected a string, got an empty value",
      "model: must not be empty",
      "temperature: expected a number from 0 to 2",
      "maxTurns: expected a positive integer",
    ]);
  });

  it("rejects numbers out of range", () => {
    expect(problemsOf(file(`${VALID}\ntemperature: 2.5\nmaxTurns: 0`))).toEqual([
      "temperature: expected a number from 0 to 2",
      "maxTurns: expected a positive integer",
    ]);
    expect(problemsOf(file(`${VALID}\nmaxTurns: -1.5`))).toEqual(["maxTurns: expected a positive integer"]);
  });

  it("rejects tools given as a comma-separated string, as other tools write them", () => {
    expect(problemsOf(file("name: A\ndescription: B\ntools: Read, Grep"))).toEqual(["tools: expected a list such as [read_file, list_files], got a string"]);
  });

  it("rejects an unknown tool by index and lists the known ones", () => {
    expect(problemsOf(file("name: A\ndescription: B\ntools: [read_file, list_files, run_comand]"))).toEqual([
      'tools[2]: "run_comand" is not a tool; known tools: read_file, write_file, edit_file, list_files, search_files, run_command',
    ]);
  });

  it("rejects a duplicated tool", () => {
    expect(problemsOf(file("name: A\ndescription: B\ntools: [read_file, list_files, read_file]"))).toEqual(['tools[2]: "read_file" is listed twice']);
  });

  it("explains that handoff is implicit when it is listed", () => {
    expect(problemsOf(file("name: A\ndescription: B\ntools: [handoff, read_file]"))).toEqual([
      'tools[0]: "handoff" is always available to every agent; remove it from the list',
    ]);
  });

  it("reports every tool problem together, including a non-string entry", () => {
    const problems = problemsOf(file("name: A\ndescription: B\ntools: [read_file, 7, nope, read_file]"));
    expect(problems).toEqual([
      "tools[1]: expected a tool name, got the number 7",
      expect.stringMatching(/^tools\[2\]: "nope" is not a tool/),
      'tools[3]: "read_file" is listed twice',
    ]);
  });
});
