import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, LimitError, outcomeOfError, ProviderError, ThreadError, unknownThreadError, YoloError } from "../../../src/errors.js";
import { EXIT_CODE_TABLE, exitCodeFor, limitLabel, type RunStatus } from "../../../src/events/outcome.js";
import { HookStopError } from "../../../src/hooks/hook-error.js";

const ROOT = join(import.meta.dirname, "../../..");

// The README's "Exit codes" table: `| code | meaning |` rows up to the next heading.
function readmeExitCodes(): Map<number, string> {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Exit codes"), readme.indexOf("\n## ", readme.indexOf("## Exit codes") + 1));
  const rows = [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)];
  return new Map(rows.map((m) => [Number(m[1]), m[2]]));
}

// `yolo --help`'s short list of the same codes (src/cli/main.ts, HELP_FOOTER).
function helpExitCodes(): Map<number, string> {
  const main = readFileSync(join(ROOT, "src/cli/main.ts"), "utf8");
  const block = main.slice(main.indexOf("Exit codes:"), main.indexOf("Environment:"));
  return new Map([...block.matchAll(/^ {2}(\d+) +(.+)$/gm)].map((m) => [Number(m[1]), m[2]]));
}

// The words each status is documented with; a limit row is documented with its kind's label.
const STATUS_WORDS: Record<Exclude<RunStatus, "limit">, string> = {
  passed: "the gate passed",
  failed: "still fails",
  config_error: "configuration error",
  waiting: "waiting for a human",
  provider_error: "provider error",
  error: "internal error",
  interrupted: "interrupted",
};

const wordsOf = (row: (typeof EXIT_CODE_TABLE)[number]) =>
  row.status === "limit" ? (row.limit ? limitLabel(row.limit) : "step limit") : STATUS_WORDS[row.status];

describe("one table maps outcomes to exit codes, and the README and --help say the same", () => {
  it("the README lists exactly the table's codes, each with the words of its outcome", () => {
    const readme = readmeExitCodes();
    expect(readme.size).toBeGreaterThan(10);
    expect([...readme.keys()].sort((a, b) => a - b)).toEqual([...new Set(EXIT_CODE_TABLE.map((r) => r.code))].sort((a, b) => a - b));
    for (const row of EXIT_CODE_TABLE) expect(readme.get(row.code)?.toLowerCase(), `exit ${row.code}`).toContain(wordsOf(row));
  });

  it("`yolo --help` lists the same codes with the same words", () => {
    const help = helpExitCodes();
    expect([...help.keys()].sort((a, b) => a - b)).toEqual([...new Set(EXIT_CODE_TABLE.map((r) => r.code))].sort((a, b) => a - b));
    const short: Partial<Record<string, string>> = { "still fails": "still fails", "provider error": "provider error", budget: "budget" };
    for (const row of EXIT_CODE_TABLE) expect(help.get(row.code)?.toLowerCase(), `exit ${row.code}`).toContain(short[wordsOf(row)] ?? wordsOf(row));
  });

  it("exitCodeFor reads the table: every row's outcome gives its code", () => {
    for (const row of EXIT_CODE_TABLE) expect(exitCodeFor(row.status, row.limit), JSON.stringify(row)).toBe(row.code);
  });

  it("errors map to outcomes in one place, and through the table to the codes the README gives them", () => {
    const code = (e: unknown) => {
      const { status, limit } = outcomeOfError(e);
      return exitCodeFor(status, limit);
    };
    expect(code(new ConfigError("bad flag"))).toBe(2);
    expect(code(unknownThreadError("k3f9"))).toBe(2);
    expect(code(new ThreadError("busy"))).toBe(2);
    expect(code(new ProviderError("401", 401))).toBe(5);
    expect(code(new LimitError("budget", "spent"))).toBe(7);
    expect(code(new LimitError("loop", "again"))).toBe(9);
    expect(code(new HookStopError("a hook said stop"))).toBe(130);
    expect(code(new YoloError("storage", "disk full"))).toBe(70);
    expect(code(new Error("what"))).toBe(70);
  });
});
