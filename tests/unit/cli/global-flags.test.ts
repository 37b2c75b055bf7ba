import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { hoistGlobalFlags } from "../../../src/cli/global-flags.js";

function program(): Command {
  const p = new Command().option("-C, --cwd <dir>");
  p.command("run").argument("<words...>").option("--json").option("-m, --model <name>").option("--no-tui");
  const threads = p.command("threads").option("--json").option("--all");
  threads.command("rm").argument("<ids...>");
  return p;
}
const argv = (...a: string[]) => ["node", "yolo", ...a];

describe("hoistGlobalFlags", () => {
  it("moves a command's options given before it to after its name, values with them, -C staying in front", () => {
    expect(hoistGlobalFlags(argv("--json", "threads"), program())).toEqual(argv("threads", "--json"));
    expect(hoistGlobalFlags(argv("-C", "d", "--model", "m", "--no-tui", "run", "x"), program())).toEqual(
      argv("-C", "d", "run", "--model", "m", "--no-tui", "x"),
    );
    expect(hoistGlobalFlags(argv("--model=m", "run", "x"), program())).toEqual(argv("run", "--model=m", "x"));
  });

  it("leaves everything else as typed (commander reports what is wrong)", () => {
    for (const a of [argv("threads", "--json"), argv("--bogus", "threads"), argv("--json"), argv("--model"), argv("--", "--json", "run")]) {
      expect(hoistGlobalFlags(a, program())).toEqual(a);
    }
  });
});
