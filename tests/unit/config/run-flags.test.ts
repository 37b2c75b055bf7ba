import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFlagsSchema } from "../../../src/config/run-flags.js";

const ROOT = join(import.meta.dirname, "../../..");

// The long options src/cli/main.ts registers for run, agent, chat and resume, as commander names their values.
function registeredRunOptions(): string[] {
  const main = readFileSync(join(ROOT, "src/cli/main.ts"), "utf8");
  const shared = main.slice(main.indexOf("function runOptions"), main.indexOf("const HELP_FOOTER"));
  const resume = main.slice(main.indexOf('.command("resume")'), main.indexOf('.command("threads")'));
  const names = [...`${shared}\n${resume}`.matchAll(/\.option\(\s*"(?:-\w, )?--(?:no-)?([a-z-]+)/g)].map((m) => m[1]);
  return [...new Set(names.map((n) => n.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())))].sort();
}

describe("one type describes the options of a run", () => {
  it("RunFlags has exactly the options the CLI registers for run, agent, chat and resume", () => {
    const registered = registeredRunOptions();
    expect(registered.length).toBeGreaterThan(20);
    expect(Object.keys(runFlagsSchema.shape).sort()).toEqual(registered);
  });
});
