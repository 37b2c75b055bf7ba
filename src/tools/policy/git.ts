import { refuse, type Nested } from "./nested.js";
import { baseName } from "./patterns.js";

/** git's options before the subcommand that take a value (`git -C dir push`, `git --git-dir=x push`). */
const GLOBAL_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source"]);

/**
 * Settings that run no program, which `git -c`, `--config-env` and `git config` may set freely. Any other key is
 * refused unless its value is a shell command the policy can check (see SHELL_KEYS): git has dozens of settings
 * that run a program (`core.fsmonitor`, `diff.external`, `filter.*`, `credential.helper`, `include.path` …), and a
 * short list of safe ones ages better than a long list of dangerous ones.
 */
const SAFE_KEYS = [
  /^user\./,
  /^author\./,
  /^committer\./,
  /^color\./,
  /^advice\./,
  /^init\.defaultbranch$/,
  /^safe\.directory$/,
  /^(commit|tag)\.gpgsign$/,
  /^core\.(quotepath|autocrlf|safecrlf|filemode|abbrev|ignorecase|longpaths|eol|whitespace|precomposeunicode|symlinks)$/,
  /^log\./,
  /^diff\.(noprefix|renames|algorithm|mnemonicprefix|context|colormoved|relative|statgraphwidth|suppressblankempty|indentheuristic)$/,
  /^merge\.(conflictstyle|ff|log|renames)$/,
  /^pull\.(rebase|ff)$/,
  /^push\.(default|autosetupremote)$/,
  /^fetch\.(prune|parallel)$/,
  /^rebase\.(autosquash|autostash|updaterefs)$/,
  /^status\./,
  /^column\./,
  /^i18n\./,
  /^gc\.auto/,
  /^maintenance\.auto$/,
  /^blame\./,
  /^format\.pretty$/,
  /^pretty\./,
  /^grep\./,
  /^branch\.sort$/,
  /^tag\.sort$/,
  /^help\.autocorrect$/,
  /^am\.threeway$/,
  /^apply\.whitespace$/,
];

/** Settings whose value is a shell command git runs: allowed when the command passes the policy (`core.pager=cat`). */
const SHELL_KEYS = [/^core\.pager$/, /^pager\.[^.]+$/, /^core\.editor$/, /^sequence\.editor$/, /^core\.sshcommand$/, /^diff\.external$/];

/** What setting `key` to `value` means for the policy: nothing, a shell command to check, or a refusal. */
export function gitConfigRuns(key: string, value: string | undefined, how: string): Nested[] {
  const k = key.toLowerCase();
  if (SAFE_KEYS.some((re) => re.test(k))) return [];
  if (k.startsWith("alias.")) {
    return [
      refuse(
        "git alias",
        `${how} defines the git alias \`${key}\`, which would run ${value?.startsWith("!") ? "a shell command" : "another git command"} under a name the policy does not know; run the command itself`,
      ),
    ];
  }
  if (value !== undefined && SHELL_KEYS.some((re) => re.test(k))) return [{ kind: "shell", script: value }];
  return [
    refuse(
      "git config that runs programs",
      `${how} sets \`${key}\`, which is not on yolo's list of git settings known not to run a program; run git without it`,
    ),
  ];
}

/** The git invocation with its global options skipped (`git -C . push` → `git push`), and what they set. */
export function gitSubcommand(argv: string[]): { index: number; settings: Nested[] } | null {
  if (baseName(argv[0]) !== "git") return null;
  const settings: Nested[] = [];
  let i = 1;
  while (i < argv.length && argv[i].startsWith("-")) {
    const arg = argv[i];
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    let value: string | undefined;
    if (GLOBAL_VALUE.has(name)) {
      value = name === arg ? (argv[++i] ?? "") : arg.slice(eq + 1);
    }
    if (name === "-c") {
      const [key, ...rest] = (value ?? "").split("=");
      settings.push(...gitConfigRuns(key, rest.length ? rest.join("=") : "true", `\`git -c ${value}\``));
    } else if (name === "--config-env") {
      const key = (value ?? "").split("=")[0];
      settings.push(...gitConfigRuns(key, undefined, `\`git --config-env=${value}\``));
    } else if (name === "--exec-path" && eq > 0) {
      settings.push(refuse("git exec path", "`git --exec-path=…` makes git run its subcommands from another folder; run git without it"));
    }
    i++;
  }
  return { index: i, settings };
}

/** The subcommand options and forms that run a command: `rebase --exec`, `submodule foreach`, `bisect run` … */
const EXEC_OPTIONS = new Set([
  "--exec",
  "--upload-pack",
  "--receive-pack",
  "--extcmd",
  "--env-filter",
  "--tree-filter",
  "--index-filter",
  "--parent-filter",
  "--msg-filter",
  "--commit-filter",
  "--tag-name-filter",
]);

/**
 * Everything a git command runs besides git itself, for the policy to check: settings given with `-c`, values of
 * `git config` that run programs, and subcommands that take a command (`rebase -x`, `submodule foreach`,
 * `bisect run`, `filter-branch --tree-filter`, `difftool -x`, `--upload-pack`).
 */
export function gitRuns(argv: string[]): Nested[] {
  const found = gitSubcommand(argv);
  if (!found) return [];
  const nested = [...found.settings];
  const sub = argv[found.index];
  const rest = argv.slice(found.index + 1);
  if (sub === "config") nested.push(...configSetRuns(rest));
  if (sub === "submodule") {
    const at = rest.indexOf("foreach");
    if (at >= 0) {
      let from = at + 1;
      while (from < rest.length && rest[from].startsWith("-")) from++;
      nested.push({ kind: "shell", script: rest.slice(from).join(" ") });
    }
  }
  if (sub === "bisect" && rest[0] === "run" && rest.length > 1) nested.push({ kind: "argv", argv: rest.slice(1) });
  for (let j = 0; j < rest.length; j++) {
    const arg = rest[j];
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const short = ((sub === "rebase" || sub === "difftool") && arg.startsWith("-x")) || (sub === "clone" && arg.startsWith("-u"));
    if (short && arg.length > 2) nested.push({ kind: "shell", script: arg.slice(2) });
    else if (EXEC_OPTIONS.has(name) || short) nested.push({ kind: "shell", script: eq > 0 && !short ? arg.slice(eq + 1) : (rest[++j] ?? "") });
  }
  return nested;
}

// `git config [--local] key value`, `git config set key value`, `git config --add key value`: the key set.
function configSetRuns(args: string[]): Nested[] {
  const positional: string[] = [];
  let reading = false;
  for (let j = 0; j < args.length; j++) {
    const arg = args[j];
    if (
      /^(--get|--get-all|--get-regexp|--get-urlmatch|-l|--list|--unset|--unset-all|--remove-section|--rename-section|-e|--edit|--show-origin|--show-scope)$/.test(
        arg,
      )
    )
      reading = true;
    else if (arg === "-f" || arg === "--file" || arg === "--blob" || arg === "--type" || arg === "--default" || arg === "--comment" || arg === "--value") j++;
    else if (!arg.startsWith("-")) positional.push(arg);
  }
  if (reading) return [];
  if (/^(get|list|unset|remove-section|rename-section|edit)$/.test(positional[0] ?? "")) return [];
  if (positional[0] === "set") positional.shift();
  if (positional.length < 2) return [];
  return gitConfigRuns(positional[0], positional[1], `\`git config ${positional[0]}\``);
}
