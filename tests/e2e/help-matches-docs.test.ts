import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";

// The built binary's --help is the truth about commands and options; the README's command table and docs/cli.md's
// tables must name every one of them, so a new command or flag cannot ship undocumented.
const ROOT = join(import.meta.dirname, "../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const CLI_DOC = readFileSync(join(ROOT, "docs/cli.md"), "utf8");

/** The first cells of a Markdown table's rows in `text`, between `heading` and the next `## ` heading. */
function firstCells(text: string, heading: string): string {
  const start = text.indexOf(heading);
  const section = text.slice(start, text.indexOf("\n## ", start + 1) >>> 0);
  return [...section.matchAll(/^\| (.+?) \| /gm)].map((m) => m[1]).join("\n");
}

async function help(args: string[]): Promise<string> {
  const r = await runYolo([...args, "--help"], { cwd: ROOT });
  expect(r.exitCode, describeResult(r)).toBe(0);
  return r.stdout;
}

/** The long options a command's --help lists (without --help itself). */
async function optionsOf(command: string): Promise<string[]> {
  return [...(await help([command])).matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]).filter((o) => o !== "--help");
}

describe("the CLI tables in README.md and docs/cli.md match the binary's --help", { timeout: 180_000 }, () => {
  it("every command `yolo --help` lists is in the README's command table and in docs/cli.md's", async () => {
    const commands = [...(await help([])).split("Commands:")[1].matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]).filter((c) => c !== "help");
    expect(commands.length).toBeGreaterThan(10);
    const readme = firstCells(README, "## Commands");
    const doc = firstCells(CLI_DOC, "## Commands");
    for (const c of commands) {
      expect(readme, `README.md, ## Commands: yolo ${c}`).toContain(`yolo ${c}`);
      expect(doc, `docs/cli.md, ## Commands: yolo ${c}`).toContain(`yolo ${c}`);
    }
  });

  it("every option of run, agent, chat and resume is in docs/cli.md's tables", async () => {
    const doc = `${firstCells(CLI_DOC, "## Commands")}\n${firstCells(CLI_DOC, "## Options")}`;
    for (const command of ["run", "agent", "chat", "resume"]) {
      const options = await optionsOf(command);
      expect(options.length).toBeGreaterThan(10);
      for (const o of options) expect(doc, `docs/cli.md: yolo ${command} ${o}`).toMatch(new RegExp(`${o}(?![a-z-])`));
    }
  });

  it("every option of the other commands is in docs/cli.md's command table", async () => {
    const doc = firstCells(CLI_DOC, "## Commands");
    for (const command of ["threads", "show", "report", "history", "doctor", "eval"]) {
      for (const o of await optionsOf(command)) expect(doc, `docs/cli.md: yolo ${command} ${o}`).toMatch(new RegExp(`${o}(?![a-z-])`));
    }
  });
});
