import { parseShell, type SimpleCommand } from "./shell-parse.js";

/** A pattern and where it came from, for the refusal message ("user config", "yolo.config.ts", "default", "role ci"). */
export interface CommandRule {
  pattern: string;
  source: string;
}

/** An allow-list from one source; a command must match every list in force (user ∩ repository ∩ role). */
export interface AllowList {
  source: string;
  patterns: string[];
}

/** The resolved policy: deny rules from every source (a union) and the allow-lists in force (an intersection). */
export interface CommandPolicy {
  deny: CommandRule[];
  allow: AllowList[];
}

/**
 * Refused always (argv patterns, see `matchesPattern`): privilege escalation, removing the root, the home folder
 * or the parent folder, formatting or overwriting disks, powering off, and piping anything into a shell
 * (`curl … | sh`). They are a guard against obvious mistakes, not a sandbox: a script the model writes and then
 * runs (`npm test`) is not looked into; bubblewrap is what contains that.
 */
export const DEFAULT_DENY: readonly string[] = [
  "sudo", "su", "doas", "pkexec",
  "rm ** /", "rm ** /*", "rm ** ~", "rm ** ~/**", "rm ** $HOME", "rm ** $HOME/**", "rm ** ${HOME}", "rm ** ${HOME}/**",
  "rm ** ..", "rm ** ../**",
  "mkfs*", "dd ** of=/dev/*", "shutdown", "reboot", "halt", "poweroff",
  "| sh", "| bash", "| zsh", "| dash", "| ksh",
];

/** Programs an allow-list need not name: they only print, test or move the shell around. */
const HARMLESS = new Set(["cd", "pwd", "echo", "printf", "true", "false", "test", "[", "exit", ":", "set", "export"]);

/** Programs that run the rest of their arguments as a command; the command they run is checked too. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh"]);
const MAX_NESTING = 4;

export type PolicyDecision = { ok: true } | { ok: false; reason: string };

/** The policy of the default deny list alone. */
export function defaultPolicy(): CommandPolicy {
  return { deny: DEFAULT_DENY.map((pattern) => ({ pattern, source: "the default deny list" })), allow: [] };
}

/** Combines policies: deny rules add up, allow-lists all apply. A later policy can only narrow an earlier one. */
export function narrowPolicy(base: CommandPolicy, extra: { deny?: readonly string[]; allow?: readonly string[] } | undefined, source: string): CommandPolicy {
  if (!extra) return base;
  return {
    deny: [...base.deny, ...(extra.deny ?? []).map((pattern) => ({ pattern, source }))],
    allow: extra.allow ? [...base.allow, { source, patterns: [...extra.allow] }] : base.allow,
  };
}

/** Checks a shell string against the policy: every simple command in it, and every command a wrapper or `sh -c` runs. */
export function checkCommand(command: string, policy: CommandPolicy): PolicyDecision {
  return checkShell(command, policy, 0);
}

function checkShell(command: string, policy: CommandPolicy, depth: number): PolicyDecision {
  const parsed = parseShell(command);
  if (!parsed.ok) {
    return { ok: false, reason: `the command cannot be checked against the command policy: ${parsed.reason}. Run plain commands (pipes, &&, ;, redirections and quotes are fine), one at a time if needed.` };
  }
  for (const simple of parsed.commands) {
    const decision = checkSimple(simple, policy, depth);
    if (!decision.ok) return decision;
  }
  return { ok: true };
}

// One simple command: deny rules at every level (the wrapper and what it runs); allow-lists on the command that
// finally runs (wrappers such as `env` or `timeout` are transparent).
function checkSimple(cmd: SimpleCommand, policy: CommandPolicy, depth: number): PolicyDecision {
  const shown = cmd.argv.join(" ");
  for (const rule of policy.deny) {
    if (matchesPattern(rule.pattern, cmd)) return { ok: false, reason: `\`${shown}\` is refused by the command policy: it matches deny rule "${rule.pattern}" (${rule.source}).` };
  }
  if (depth >= MAX_NESTING) return { ok: false, reason: `\`${shown}\` nests commands too deeply to be checked against the command policy.` };
  const script = shellScript(cmd.argv);
  if (script !== null) return checkShell(script, policy, depth + 1);
  const inner = unwrap(cmd.argv);
  if (inner) return checkSimple({ argv: inner, piped: cmd.piped }, policy, depth + 1);
  if (HARMLESS.has(cmd.argv[0])) return { ok: true };
  for (const list of policy.allow) {
    if (!list.patterns.some((pattern) => matchesPattern(pattern, cmd))) {
      const shownList = list.patterns.length ? list.patterns.map((p) => `"${p}"`).join(", ") : "nothing";
      return { ok: false, reason: `\`${shown}\` is refused by the command policy: it is not in the allow-list of ${list.source} (${shownList}).` };
    }
  }
  return { ok: true };
}

/**
 * Whether a policy pattern matches a simple command. A pattern is words separated by spaces, matched against the
 * start of argv (so `git status` matches `git status --short`); a final `$` requires argv to end there. In a word,
 * `*` matches any characters except `/`, `?` one such character, and `**` any characters at all; a word that is
 * exactly `**` matches any number of arguments (`rm ** /` matches `rm -rf /` and `rm -r -f /`). The program word,
 * unless it contains `/`, is compared with the program's base name (`rm` matches `/bin/rm`). A leading `|` makes
 * the pattern match only a command that reads a pipe (`| sh` matches the `sh` of `curl … | sh`).
 */
export function matchesPattern(pattern: string, cmd: SimpleCommand): boolean {
  let words = pattern.trim().split(/\s+/).filter(Boolean);
  if (words[0] === "|") {
    if (!cmd.piped) return false;
    words = words.slice(1);
  }
  if (words.length === 0 || cmd.argv.length === 0) return false;
  const [program, ...rest] = words;
  const argv0 = program.includes("/") ? cmd.argv[0] : cmd.argv[0].slice(cmd.argv[0].lastIndexOf("/") + 1);
  if (!globWord(program).test(argv0)) return false;
  return matchWords(rest, cmd.argv.slice(1));
}

// Matches pattern words against argv from the start; `**` spans any number of arguments, `$` demands the end.
function matchWords(words: string[], argv: string[]): boolean {
  if (words.length === 0) return true;
  const [first, ...rest] = words;
  if (first === "$") return argv.length === 0 && rest.length === 0;
  if (first === "**") {
    for (let skip = 0; skip <= argv.length; skip++) if (matchWords(rest, argv.slice(skip))) return true;
    return false;
  }
  return argv.length > 0 && globWord(first).test(argv[0]) && matchWords(rest, argv.slice(1));
}

const globCache = new Map<string, RegExp>();
function globWord(word: string): RegExp {
  let re = globCache.get(word);
  if (!re) {
    let source = "";
    for (let i = 0; i < word.length; i++) {
      const c = word[i];
      if (c === "*" && word[i + 1] === "*") {
        source += ".*";
        i++;
      } else if (c === "*") source += "[^/]*";
      else if (c === "?") source += "[^/]";
      else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    re = new RegExp(`^${source}$`, "s");
    globCache.set(word, re);
  }
  return re;
}

// `sh -c 'script'`, `bash -lc "…"`: the script the shell will run, or null.
function shellScript(argv: string[]): string | null {
  if (!SHELLS.has(baseName(argv[0]))) return null;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("-") || arg === "-" || arg === "--") return null;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) return argv[i + 1] ?? "";
  }
  return null;
}

/** Options that take a value, per wrapper, so the wrapped program is found after them. */
const WRAPPERS: Record<string, { valueOptions: string[]; positional?: number }> = {
  env: { valueOptions: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"] },
  nice: { valueOptions: ["-n", "--adjustment"] },
  nohup: { valueOptions: [] },
  time: { valueOptions: ["-f", "--format", "-o", "--output"] },
  command: { valueOptions: [] },
  exec: { valueOptions: ["-a"] },
  timeout: { valueOptions: ["-k", "--kill-after", "-s", "--signal"], positional: 1 },
  stdbuf: { valueOptions: ["-i", "-o", "-e"] },
  xargs: { valueOptions: ["-I", "-n", "-L", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file"] },
};

// The command a wrapper runs (`env X=1 npm test` → `npm test`), or null for anything else.
function unwrap(argv: string[]): string[] | null {
  const spec = WRAPPERS[baseName(argv[0])];
  if (!spec) return null;
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i];
    if (arg === "--") {
      i++;
      break;
    }
    if (spec.valueOptions.includes(arg)) i += 2;
    else if (arg.startsWith("-") && arg !== "-") i++;
    else if (baseName(argv[0]) === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) i++;
    else break;
  }
  i += spec.positional ?? 0;
  return i < argv.length ? argv.slice(i) : null;
}

function baseName(program: string): string {
  return program.slice(program.lastIndexOf("/") + 1);
}

/** The policy for one agent: `policy` narrowed by the rules for its id, or else for its role. */
export function policyForRole(
  policy: CommandPolicy,
  roles: Readonly<Record<string, readonly { source: string; rules: { allow?: readonly string[]; deny?: readonly string[] } }[]>>,
  agentId: string,
  role: string,
): CommandPolicy {
  const entries = roles[agentId] ?? roles[role] ?? [];
  return entries.reduce((acc, entry) => narrowPolicy(acc, entry.rules, entry.source), policy);
}
