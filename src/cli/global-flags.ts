import type { Command } from "commander";

/**
 * `yolo --json threads` as other CLIs take it: options given before the command move after its name, where commander
 * reads them (it knows only -C, --help and --version there). Whether an option takes a value comes from the
 * commands' own definitions, so `yolo --model m run …` moves `m` with `--model`. An option no command knows is left
 * where it is, and commander reports it as before.
 */
export function hoistGlobalFlags(argv: readonly string[], program: Command): string[] {
  const head = argv.slice(0, 2);
  const args = argv.slice(2);
  const arity = optionArity(program);
  const before: string[] = [];
  const moved: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === "--" || !a.startsWith("-") || a === "-") break;
    const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
    const own = program.options.find((o) => o.short === name || o.long === name);
    const takes = own ? own.required || own.optional : arity.get(name);
    if (takes === undefined) return [...argv];
    const group = takes && !a.includes("=") && !(own && name.length === 2 && a.length > 2) ? [a, args[i + 1]] : [a];
    if (group.length === 2 && group[1] === undefined) return [...argv];
    (own ? before : moved).push(...(group as string[]));
    i += group.length - 1;
  }
  if (moved.length === 0 || i >= args.length || args[i] === "--") return [...argv];
  return [...head, ...before, args[i], ...moved, ...args.slice(i + 1)];
}

/** Every option of every command (and subcommand), by flag: whether it takes a value. */
function optionArity(program: Command): Map<string, boolean> {
  const map = new Map<string, boolean>();
  const visit = (cmd: Command) => {
    for (const o of cmd.options) {
      for (const flag of [o.short, o.long]) if (flag && !map.has(flag)) map.set(flag, o.required || o.optional);
    }
    for (const sub of cmd.commands) visit(sub);
  };
  for (const sub of program.commands) visit(sub);
  return map;
}
