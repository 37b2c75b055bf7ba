import type { SimpleCommand } from "../shell-parse.js";
import { refuse, type Nested } from "./nested.js";
import { scanOptions } from "./options.js";
import { baseName } from "./patterns.js";

/** Shells: `-c` runs a string, a positional runs a script file, neither reads the program from standard input. */
const SHELLS = /^(sh|bash|rbash|dash|zsh|ksh|ksh93|mksh|ash|yash|posh|fish|csh|tcsh)(-?[0-9][0-9.]*)?$/;

/** Files that are an input stream (`-`, `/dev/stdin`, `/dev/fd/3`): a script read from them is a pipe's or a here-document's content. */
const STDIN_FILE = /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(self|\d+)\/fd\/\d+)$/;

/** Interpreters with options that take inline code, and the other options that take a value. */
const INTERPRETERS: { name: RegExp; code: readonly string[]; value?: string; long?: readonly string[]; module?: readonly string[] }[] = [
  { name: /^(python[0-9.]*|pypy[0-9]*)$/, code: ["-c"], value: "cmWX", module: ["-m"] },
  {
    name: /^(node|nodejs|bun)$/,
    code: ["-e", "-p", "--eval", "--print"],
    value: "epr",
    long: ["eval", "print", "require", "import", "loader", "experimental-loader", "input-type", "conditions", "title"],
  },
  { name: /^deno$/, code: [], value: "" },
  { name: /^perl[0-9.]*$/, code: ["-e", "-E"], value: "eE" },
  { name: /^(ruby|jruby)$/, code: ["-e"], value: "erIC" },
  { name: /^php[0-9.]*$/, code: ["-r", "-B", "-R", "-E"], value: "rBREfdc" },
  { name: /^(lua[0-9.]*|luajit)$/, code: ["-e"], value: "el" },
  { name: /^(Rscript)$/, code: ["-e"], value: "e" },
  { name: /^(osascript)$/, code: ["-e"], value: "el" },
  { name: /^(expect)$/, code: ["-c"], value: "cf" },
  { name: /^(pwsh|powershell)$/, code: ["-c", "-Command", "-command"], value: "c" },
  { name: /^(tclsh|wish|irb|jshell|guile|racket|sbcl|ghci|julia|scala|clojure)$/, code: ["-e", "--eval"], value: "e" },
];

/** Programs that read commands from their input and have a `!` shell escape (ed, ex, dc, `vim -e`). */
export function commandReaderRuns(cmd: SimpleCommand): Nested[] {
  const name = baseName(cmd.argv[0]);
  const exMode = /^(ed|red|ex|dc)$/.test(name) || (/^(vim?|nvim)$/.test(name) && cmd.argv.some((a) => /^-[a-zA-Z]*[eE]/.test(a) && !a.startsWith("--")));
  if (!exMode) return [];
  if (cmd.piped)
    return [refuse("pipe into an interpreter", `\`${name}\` would run the commands the previous command prints, and they can run shell commands with \`!\``)];
  return (cmd.stdin ?? "").split("\n").flatMap((line): Nested[] => {
    const bang = /^[\s:]*[0-9,.$%]*\s*!(.*)$/.exec(line);
    return bang ? [{ kind: "shell", script: bang[1] }] : [];
  });
}

/** awk programs: the first positional word is the program unless `-f` names a file. */
const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);

/** Whether the program is a shell. */
export function isShell(program: string): boolean {
  return SHELLS.test(baseName(program));
}

/**
 * What a shell invocation runs: `sh -c 'script'` (with `-o errexit`, `-xc`, `--` and the other option forms), a
 * script file (not looked into), or the program from standard input — refused when that is a pipe (downloaded
 * code), checked when it is a here-document or here-string.
 */
export function shellRuns(cmd: SimpleCommand): Nested[] {
  const { argv } = cmd;
  let command = false;
  let fromStdin = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--" || arg === "-") {
      i++;
      break;
    }
    if (arg === "--rcfile" || arg === "--init-file") {
      i++;
      continue;
    }
    if (arg.startsWith("--")) continue;
    if (!/^[-+]/.test(arg)) break;
    const letters = arg.slice(1);
    if (letters.includes("c")) command = true;
    if (letters.includes("s")) fromStdin = true;
    // -o / +o / -O / +O take an option name as the next word, also at the end of a cluster (`-eo pipefail`).
    if (/[oO]/.test(letters)) i++;
  }
  if (command) return i < argv.length ? [{ kind: "shell", script: argv[i] }] : [];
  if (!fromStdin && i < argv.length && !STDIN_FILE.test(argv[i])) return [];
  return fromStdinNested(cmd, "a shell", "shell");
}

// What a program that reads its code from standard input runs: a pipe is refused, a here-document is checked.
function fromStdinNested(cmd: SimpleCommand, what: string, kind: "shell" | "code"): Nested[] {
  if (cmd.piped)
    return [
      refuse(
        "pipe into an interpreter",
        `${what} would run whatever the previous command prints (downloaded code runs unseen); save it to a file and look at it first`,
      ),
    ];
  if (cmd.stdin === undefined) return [];
  return kind === "shell" ? [{ kind: "shell", script: cmd.stdin }] : [{ kind: "code", code: cmd.stdin }];
}

/** `. FILE` and `source FILE`: reading the standard input is the same as piping into a shell. */
export function sourceRuns(cmd: SimpleCommand): Nested[] | null {
  const name = baseName(cmd.argv[0]);
  if (name !== "." && name !== "source") return null;
  if (!STDIN_FILE.test(cmd.argv[1] ?? "")) return [];
  return fromStdinNested(cmd, `\`${name} ${cmd.argv[1]}\``, "shell");
}

/**
 * What an interpreter runs: inline code (`python3 -c`, `node -e`, `perl -ne`, an awk program) to be scanned, or
 * its standard input (refused from a pipe, scanned from a here-document). A script file or module is not looked
 * into (the sandbox is the line there). Null for anything that is no interpreter.
 */
export function interpreterRuns(cmd: SimpleCommand): Nested[] | null {
  const name = baseName(cmd.argv[0]);
  if (AWKS.has(name)) return awkRuns(cmd);
  const spec = INTERPRETERS.find((s) => s.name.test(name));
  if (!spec) return null;
  if (name === "deno") {
    if (cmd.argv[1] === "eval") return [{ kind: "code", code: cmd.argv.slice(2).join(" ") }];
    return cmd.argv.some((a) => STDIN_FILE.test(a)) ? fromStdinNested(cmd, "`deno` reading its program from standard input", "code") : [];
  }
  // `node -pe CODE` is `-p` with CODE, not `-p` with the value "e".
  const argv = cmd.argv.map((w) => (w === "-pe" || w === "-ep" ? "-e" : w));
  const { index, options } = scanOptions(argv, 1, spec);
  const code = options.filter((o) => spec.code.includes(o.name) || (/^--(import|loader|experimental-loader)$/.test(o.name) && /^data:/i.test(o.value ?? "")));
  if (code.length) return code.map((o) => ({ kind: "code", code: o.value ?? "" }));
  if (options.some((o) => spec.module?.includes(o.name))) return [];
  if (index < cmd.argv.length && !STDIN_FILE.test(cmd.argv[index])) return [];
  return fromStdinNested(cmd, `\`${name}\` reading its program from standard input`, "code");
}

// awk's program is its first positional word, or files given with -f.
function awkRuns(cmd: SimpleCommand): Nested[] {
  const { index, options } = scanOptions(cmd.argv, 1, { value: "vFfe", long: ["assign", "field-separator", "file", "source", "exec", "include", "load"] });
  const code = options.filter((o) => o.name === "-e" || o.name === "--source").map((o): Nested => ({ kind: "code", code: o.value ?? "" }));
  if (options.some((o) => o.name === "-f" || o.name === "--file" || o.name === "--exec")) return code;
  return index < cmd.argv.length ? [...code, { kind: "code", code: cmd.argv[index] }] : code;
}

/**
 * The string literals of a piece of code (`'…'`, `"…"`, `` `…` ``), which the policy checks as shell commands:
 * a best effort that catches `os.system('curl …')`, `system("sudo id")` and `['curl', url]`, not code that
 * builds a command name at run time.
 */
export function codeLiterals(code: string): string[] {
  const found: string[] = [];
  const re = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
  for (let m = re.exec(code); m; m = re.exec(code)) found.push((m[1] ?? m[2] ?? m[3]).replace(/\\(.)/g, "$1"));
  return found;
}
