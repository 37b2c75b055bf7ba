import { gitRuns, gitSubcommand } from "./policy/git.js";
import { codeLiterals, commandReaderRuns, interpreterRuns, isShell, shellRuns, sourceRuns } from "./policy/interpreters.js";
import type { Nested } from "./policy/nested.js";
import { deleteRuns, deletesFromInput, noteCd, startWhereabouts, type Whereabouts } from "./policy/paths.js";
import { baseName, matchesPattern, shellQuote } from "./policy/patterns.js";
import { runnerRuns, SUBSCRIPT_PAYLOAD } from "./policy/runners.js";
import { unwrap } from "./policy/wrappers.js";
import { parseShell, type SimpleCommand, WORD_BRACE, WORD_GLOB, WORD_VAR } from "./shell-parse.js";

export { matchesPattern } from "./policy/patterns.js";
// The rules half (no shell parser): what config resolution needs to combine policies, apart from the checker.
export { type AllowList, type CommandPolicy, type CommandRule, DEFAULT_DENY, defaultPolicy, narrowPolicy } from "../config/command-rules.js";
import { type CommandPolicy, narrowPolicy } from "../config/command-rules.js";

/** Programs an allow-list need not name: they only print, test or move the shell around. */
const HARMLESS = new Set(["cd", "pwd", "echo", "printf", "true", "false", "test", "[", "exit", ":", "set", "export"]);

/** How deep wrappers, shell strings and inline code may nest before the command is refused as uncheckable. */
const MAX_NESTING = 10;

/** Environment variables whose value is a command some program runs (`GIT_PAGER='curl …' git log`). */
const COMMAND_ENV = new Set([
  "PAGER",
  "GIT_PAGER",
  "MANPAGER",
  "EDITOR",
  "VISUAL",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "PROMPT_COMMAND",
  "BROWSER",
  "LESSOPEN",
  "LESSCLOSE",
]);
/** Environment variables that hand git settings or programs no command line shows. */
const GIT_CONFIG_ENV = /^(GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_EXEC_PATH)$/;
/** Builtins whose `NAME=value` arguments set variables as an assignment does. */
const DECLARERS = new Set(["env", "export", "declare", "typeset", "readonly", "local", "cross-env"]);

export type PolicyDecision = { ok: true } | { ok: false; reason: string };

/** Where the command runs, for the checks that depend on it (recursive deletes). */
export interface CheckOptions {
  /** The project root; without it, every absolute path counts as outside the project. */
  root?: string;
}

// The state of one check: the policy, how deep we are, and what the command string has done so far.
interface Check {
  policy: CommandPolicy;
  depth: number;
  /** Deny rules and built-in rules only, no allow-lists (code an allowed interpreter runs). */
  denyOnly: boolean;
  where: Whereabouts;
  aliases: Map<string, string>;
  /** The string runs with a pipe as its input (`curl x | sh -c '…'`): every command in it may read the pipe. */
  piped: boolean;
}

/**
 * Checks a shell string against the policy: every simple command in it, everything a wrapper, `sh -c`, `eval`,
 * `find -exec`, `git -c` or an alias runs, the code strings of interpreters (a best effort), and the folders a
 * recursive delete names (after `cd` and path normalisation).
 */
export function checkCommand(command: string, policy: CommandPolicy, options: CheckOptions = {}): PolicyDecision {
  return checkShell(command, { policy, depth: 0, denyOnly: false, where: startWhereabouts(options.root), aliases: new Map(), piped: false });
}

function checkShell(command: string, check: Check): PolicyDecision {
  const parsed = parseShell(command);
  if (!parsed.ok) {
    return {
      ok: false,
      reason: `the command cannot be checked against the command policy: ${parsed.reason} (built-in rule "uncheckable shell syntax"). Run plain commands (pipes, &&, ;, redirections and quotes are fine), one at a time if needed.`,
    };
  }
  for (const simple of parsed.commands) {
    const decision = checkSimple(check.piped ? { ...simple, piped: true } : simple, { ...check, piped: false });
    if (!decision.ok) return decision;
  }
  return { ok: true };
}

const refused = (shown: string, why: string, rule: string): PolicyDecision => ({
  ok: false,
  reason: `\`${shown}\` is refused by the command policy: ${why} (built-in rule "${rule}").`,
});

// One simple command: deny rules on every view of it (`git -C . push` is also `git push`), the built-in rules,
// then what it runs; allow-lists on the command that finally runs (wrappers such as `env` are transparent).
function checkSimple(cmd: SimpleCommand, check: Check): PolicyDecision {
  const shown = [...(cmd.assignments ?? []), ...cmd.argv].join(" ");
  const alias = cmd.argv.length ? check.aliases.get(cmd.argv[0]) : undefined;
  if (alias !== undefined) return nestedCheck({ kind: "shell", script: [alias, ...cmd.argv.slice(1).map(shellQuote)].join(" ") }, cmd, check, shown);
  for (const nested of assignmentRuns(cmd)) {
    const decision = nestedCheck(nested, cmd, check, shown);
    if (!decision.ok) return decision;
  }
  if (cmd.argv.length === 0) return { ok: true };
  if ((cmd.flags?.[0] ?? 0) & (WORD_VAR | WORD_GLOB | WORD_BRACE)) {
    return refused(shown, `the program name \`${cmd.argv[0]}\` is expanded by the shell, so what runs cannot be known`, "program name expanded by the shell");
  }
  const git = gitSubcommand(cmd.argv);
  const views = git && git.index > 1 ? [cmd, { ...cmd, argv: ["git", ...cmd.argv.slice(git.index)] }] : [cmd];
  for (const rule of check.policy.deny) {
    if (views.some((v) => matchesPattern(rule.pattern, v)))
      return { ok: false, reason: `\`${shown}\` is refused by the command policy: it matches deny rule "${rule.pattern}" (${rule.source}).` };
  }
  if (check.depth >= MAX_NESTING) return refused(shown, "it nests commands too deeply to be checked", "nesting too deep");
  const wrapped = unwrap(cmd.argv, cmd.flags);
  const shell = isShell(cmd.argv[0]) ? shellRuns(cmd) : null;
  const nested = [
    ...(shell ?? []),
    ...(sourceRuns(cmd) ?? []),
    ...(interpreterRuns(cmd) ?? []),
    ...commandReaderRuns(cmd),
    ...gitRuns(cmd.argv),
    ...runnerRuns(cmd),
    ...deleteRuns(cmd, check.where),
    ...(wrapped ?? []),
    ...deletesFromInput(cmd.argv, wrapped),
  ];
  for (const n of nested) {
    const decision = nestedCheck(n, cmd, check, shown);
    if (!decision.ok) return decision;
  }
  noteCd(cmd, check.where);
  if (baseName(cmd.argv[0]) === "alias") noteAliases(cmd.argv.slice(1), check.aliases);
  // A wrapper, or a shell given a command string, is transparent: what it runs was checked above.
  if (wrapped !== null || shell?.some((n) => n.kind === "shell")) return { ok: true };
  if (check.denyOnly || HARMLESS.has(cmd.argv[0])) return { ok: true };
  for (const list of check.policy.allow) {
    if (!list.patterns.some((pattern) => views.some((v) => matchesPattern(pattern, v)))) {
      const shownList = list.patterns.length ? list.patterns.map((p) => `"${p}"`).join(", ") : "nothing";
      return { ok: false, reason: `\`${shown}\` is refused by the command policy: it is not in the allow-list of ${list.source} (${shownList}).` };
    }
  }
  return { ok: true };
}

// Checks one thing a command runs, one level deeper; inline code is checked string by string, deny rules only.
function nestedCheck(n: Nested, outer: SimpleCommand, check: Check, shown: string): PolicyDecision {
  const deeper: Check = { ...check, depth: check.depth + 1, denyOnly: check.denyOnly || n.kind === "code" || (n.kind !== "refuse" && !!n.denyOnly) };
  switch (n.kind) {
    case "refuse":
      return refused(shown, n.why, n.rule);
    case "shell":
      return checkShell(n.script, { ...deeper, piped: check.piped || outer.piped });
    case "argv":
      return checkSimple(
        n.inherit ? { argv: n.argv, flags: n.flags, piped: outer.piped, stdin: outer.stdin } : { argv: n.argv, flags: n.flags, piped: false },
        deeper,
      );
    case "code": {
      if (check.depth >= MAX_NESTING) return refused(shown, "it nests commands too deeply to be checked", "nesting too deep");
      for (const literal of codeLiterals(n.code)) {
        const parsed = parseShell(literal);
        if (!parsed.ok) continue;
        const decision = checkShell(literal, { ...deeper, piped: check.piped || outer.piped });
        if (!decision.ok)
          return {
            ok: false,
            reason: `${decision.reason.replace(/\.$/, "")}, in the code \`${shown}\` runs (code strings are checked as a best effort; the sandbox is the real line).`,
          };
      }
      return { ok: true };
    }
  }
}

// `NAME=value` words (before the program, or given to env/export): values that are commands git or a pager runs.
function assignmentRuns(cmd: SimpleCommand): Nested[] {
  const words = [...(cmd.assignments ?? [])];
  if (cmd.argv.length && DECLARERS.has(baseName(cmd.argv[0]))) words.push(...cmd.argv.slice(1).filter((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)));
  const nested: Nested[] = [];
  // `read GIT_PAGER <<< …`, `printf -v GIT_PAGER …`: a command-valued variable set to a value the policy cannot see.
  if (cmd.argv.length && /^(read|printf|mapfile|readarray)$/.test(baseName(cmd.argv[0]))) {
    const target = cmd.argv.slice(1).find((w) => COMMAND_ENV.has(w) || GIT_CONFIG_ENV.test(w));
    if (target)
      nested.push({
        kind: "refuse",
        rule: "command-valued variable",
        why: `\`${target}\` names a command some program runs; set it with a plain assignment the policy can check`,
      });
  }
  for (const word of words) {
    const eq = word.indexOf("=");
    const name = word.slice(0, eq).replace(/\+$/, "");
    const value = word.slice(eq + 1);
    if (COMMAND_ENV.has(name) && value !== "") nested.push({ kind: "shell", script: value });
    if (SUBSCRIPT_PAYLOAD.test(value))
      nested.push({
        kind: "refuse",
        rule: "array subscript evaluation",
        why: `the value of \`${name}\` holds an array subscript with a command substitution, which bash runs when the value is used in arithmetic`,
      });
    if (GIT_CONFIG_ENV.test(name))
      nested.push({
        kind: "refuse",
        rule: "git config that runs programs",
        why: `\`${name}\` hands git settings or programs the policy cannot see; pass nothing of the kind`,
      });
  }
  return nested;
}

// `alias name=value …`: later uses of `name` in the same command string are checked as `value`.
function noteAliases(args: string[], aliases: Map<string, string>): void {
  for (const arg of args) {
    const eq = arg.indexOf("=");
    if (eq > 0) aliases.set(arg.slice(0, eq), arg.slice(eq + 1));
  }
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
