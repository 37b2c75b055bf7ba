import type { SimpleCommand } from "../shell-parse.js";
import { refuse, type Nested } from "./nested.js";
import { baseName } from "./patterns.js";
import { childOf, findRoots } from "./paths.js";

/**
 * What ordinary programs run through their options: `find -exec` (and `-execdir`, `-ok`, `-okdir`), `fd -x`,
 * `tar --to-command`, `rsync -e`, `rg --pre`, `trap`, `npx -c`, `at`; plus the builtins that change what a name
 * runs (`hash -p`, `enable -f`). The program itself is checked by the caller as usual.
 */
export function runnerRuns(cmd: SimpleCommand): Nested[] {
  const { argv } = cmd;
  const name = baseName(argv[0]);
  const rest = argv.slice(1);
  switch (name) {
    case "find":
      return findExec(argv);
    case "fd":
    case "fdfind":
      return fdExec(rest);
    case "tar":
    case "gtar":
      return optionValues(rest, ["--to-command", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command", "-I", "-F"], "shell").concat(
        rest.filter((a) => a.startsWith("--checkpoint-action=exec=")).map((a) => ({ kind: "shell", script: a.slice("--checkpoint-action=exec=".length) })),
      );
    case "rsync":
      return optionValues(rest, ["-e", "--rsh", "--rsync-path"], "shell");
    case "rg":
      return optionValues(rest, ["--pre"], "argv");
    case "trap":
      return rest[0] && !rest[0].startsWith("-") ? [{ kind: "shell", script: rest[0] }] : [];
    case "npx":
    case "bunx":
      return optionValues(rest, ["-c", "--call"], "shell");
    case "npm":
    case "pnpm":
    case "yarn":
      return rest[0] === "exec" || rest[0] === "x" ? optionValues(rest.slice(1), ["-c", "--call"], "shell") : [];
    case "at":
    case "batch":
      if (cmd.piped) return [refuse("pipe into an interpreter", `\`${name}\` would run whatever the previous command prints`)];
      return cmd.stdin !== undefined ? [{ kind: "shell", script: cmd.stdin }] : [];
    case "hash":
      return rest.some((a) => /^-[a-z]*p/.test(a)) ? [refuse("command name override", "`hash -p` makes a command name run another program")] : [];
    case "enable":
      return rest.some((a) => /^-[a-z]*f/.test(a)) ? [refuse("command name override", "`enable -f` loads a builtin from a file")] : [];
    case "parallel":
      return argv.length === 1 || rest.every((a) => a.startsWith("-")) ? [refuse("pipe into an interpreter", "`parallel` without a command runs the commands it reads from its input")] : [];
    default:
      return [];
  }
}

// `find … -exec CMD … ;` (or `+`): each command, with `{}` standing for a path below find's search roots.
function findExec(argv: string[]): Nested[] {
  const roots = findRoots(argv);
  const nested: Nested[] = [];
  for (let i = 1; i < argv.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(argv[i])) continue;
    let end = i + 1;
    while (end < argv.length && argv[end] !== ";" && argv[end] !== "+") end++;
    const words = argv.slice(i + 1, end);
    for (const root of argv[i].includes("dir") ? ["."] : roots) {
      if (words.length) nested.push({ kind: "argv", argv: words.map((w) => w.replaceAll("{}", childOf(root))) });
    }
    i = end;
  }
  return nested;
}

// `fd PATTERN -x CMD …` / `--exec` / `-X` / `--exec-batch`: the rest of argv is the command.
function fdExec(rest: string[]): Nested[] {
  const at = rest.findIndex((a) => /^(-x|--exec|-X|--exec-batch)$/.test(a));
  return at >= 0 && at + 1 < rest.length ? [{ kind: "argv", argv: rest.slice(at + 1).filter((w) => w !== ";") }] : [];
}

// The values of the named options (`--opt=v`, `--opt v`, `-o v`) as commands to check.
function optionValues(args: string[], names: string[], kind: "shell" | "argv"): Nested[] {
  const found: Nested[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (!names.includes(name)) continue;
    const value = name === arg ? args[++i] ?? "" : arg.slice(eq + 1);
    found.push(kind === "shell" ? { kind: "shell", script: value } : { kind: "argv", argv: [value] });
  }
  return found;
}
