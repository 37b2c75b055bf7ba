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
      return optionValues(
        rest,
        ["--to-command", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command", "-I", "-F"],
        "shell",
      ).concat(
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
    case "vi":
    case "vim":
    case "nvim":
    case "ex":
    case "view":
      return editorRuns(rest);
    case "gdb":
      return optionValues(rest, ["-ex", "--ex", "-eval-command", "--eval-command", "-iex"], "shell").flatMap(gdbShell);
    case "sed":
    case "gsed":
      return sedRuns(rest);
    case "let":
    case "declare":
    case "typeset":
    case "local":
    case "readonly":
    case "export":
    case "printf":
    case "read":
    case "unset":
    case "test":
    case "[":
    case "mapfile":
    case "readarray":
    case "wait":
      return subscriptInjection(name, rest, cmd.stdin);
    case "parallel":
      return argv.length === 1 || rest.every((a) => a.startsWith("-"))
        ? [refuse("pipe into an interpreter", "`parallel` without a command runs the commands it reads from its input")]
        : [];
    default:
      return [];
  }
}

/** An array subscript holding a substitution (`a[$(id)]`): bash runs it wherever it evaluates the subscript. */
export const SUBSCRIPT_PAYLOAD = /\[[^\]]*(\$\(|`)/;

// bash evaluates the array subscripts of variable names (`printf -v 'a[$(id)]' x`, `read 'a[$(id)]'`), and of
// values used in arithmetic (`read x <<< 'a[$(id)]'; echo $((x))`): such a name or input is refused.
function subscriptInjection(name: string, args: string[], stdin: string | undefined): Nested[] {
  const why = "bash evaluates array subscripts here, which can run a command hidden in a name or a value";
  if (args.some((a) => SUBSCRIPT_PAYLOAD.test(a))) return [refuse("array subscript evaluation", why)];
  if (/^(read|mapfile|readarray)$/.test(name) && stdin !== undefined && SUBSCRIPT_PAYLOAD.test(stdin)) return [refuse("array subscript evaluation", why)];
  return [];
}

// `vim -c '!cmd'`, `vim +'!cmd'`, `--cmd`: an editor command starting with `!` (or `:!`) runs a shell command.
function editorRuns(args: string[]): Nested[] {
  const commands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c" || args[i] === "--cmd") commands.push(args[++i] ?? "");
    else if (args[i].startsWith("+")) commands.push(args[i].slice(1));
  }
  return commands.flatMap((c): Nested[] => {
    const bang = /^[:\s]*(?:[0-9,.$%]*\s*)!(.*)$/s.exec(c);
    if (bang) return [{ kind: "shell", script: bang[1] }];
    return /\b(system|systemlist|terminal|term|call|py3?|python3?|lua|perl|ruby|exe(cute)?|so(urce)?)\b/.test(c)
      ? [refuse("editor command that runs programs", `the editor command \`${c}\` can run programs the policy cannot see; edit files with the file tools`)]
      : [];
  });
}

// gdb's `shell CMD` and `!CMD`.
function gdbShell(n: Nested): Nested[] {
  if (n.kind !== "shell") return [n];
  const m = /^\s*(?:shell\s+|!)(.*)$/s.exec(n.script);
  return m ? [{ kind: "shell", script: m[1] }] : [];
}

// GNU sed's `e COMMAND` and the `e` flag of `s///e` run shell commands.
function sedRuns(args: string[]): Nested[] {
  const scripts: string[] = [];
  let positional = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-e" || a === "--expression") scripts.push(args[++i] ?? "");
    else if (a.startsWith("--expression=")) scripts.push(a.slice(13));
    else if (/^-[a-zA-Z]*e$/.test(a) && !a.startsWith("--")) scripts.push(args[++i] ?? "");
    else if (a === "-f" || a === "--file" || a === "-l" || a === "--line-length") i++;
    else if (!a.startsWith("-") && !positional && !args.some((x) => x === "-e" || x === "--expression" || x.startsWith("--expression=") || x === "-f")) {
      positional = true;
      scripts.push(a);
    }
  }
  const nested: Nested[] = [];
  for (const script of scripts) {
    for (const line of script.split(/[\n;]/)) {
      const e = /^\s*(?:[0-9$]+|\/[^/]*\/)?(?:,(?:[0-9$]+|\/[^/]*\/))?\s*e(?:\s+(.*))?$/.exec(line);
      if (e)
        nested.push(e[1] ? { kind: "shell", script: e[1] } : refuse("sed that runs commands", "sed's `e` command runs the pattern space as a shell command"));
      else if (/^\s*(?:[0-9$]+|\/[^/]*\/)?\s*s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[a-zA-Z0-9]*e/.test(line)) {
        nested.push(refuse("sed that runs commands", "the `e` flag of sed's `s` command runs the result as a shell command"));
      }
    }
  }
  return nested;
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
    const value = name === arg ? (args[++i] ?? "") : arg.slice(eq + 1);
    found.push(kind === "shell" ? { kind: "shell", script: value } : { kind: "argv", argv: [value] });
  }
  return found;
}
