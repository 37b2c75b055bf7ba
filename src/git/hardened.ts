import { isSecretName } from "../secrets/env.js";
import { spawnGit } from "./spawn-git.js";

/**
 * How yolo runs git: every setting through which a repository's config, attributes or hooks could make git run a
 * program is switched off, and the environment holds nothing secret. The model can write `.git/config` (always when
 * the sandbox is off) and `.gitattributes`; yolo's own git commands run on the host with yolo's rights, so nothing a
 * repository says may turn them into a way to run code there.
 */

/** Settings given to every git command (as GIT_CONFIG_KEY_n / VALUE_n, the highest precedence git has). */
export const HARDENED_CONFIG: readonly (readonly [string, string])[] = [
  // Hooks of any kind (pre-commit, commit-msg, post-commit, post-checkout, reference-transaction, post-index-change).
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["core.editor", ":"],
  ["sequence.editor", ":"],
  ["diff.external", ""],
  ["core.attributesFile", "/dev/null"],
  ["core.askPass", ""],
  ["core.sshCommand", "false"],
  ["credential.helper", ""],
  ["protocol.allow", "never"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["log.showSignature", "false"],
  ["submodule.recurse", "false"],
  ["diff.ignoreSubmodules", "all"],
  ["status.submoduleSummary", "false"],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
];

/** Variables git gets from yolo's environment (names, `*` at the end for a prefix); secret-looking ones never pass. */
const GIT_ENV_ALLOW = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "LC_",
  "TZ",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "SYSTEMROOT",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_AUTHOR_DATE",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "GIT_COMMITTER_DATE",
  "GIT_CONFIG_GLOBAL",
];

/** Subcommands that read or write work-tree content, where attribute filters could run. */
const CONTENT_COMMANDS = new Set([
  "add",
  "worktree",
  "status",
  "diff",
  "checkout",
  "switch",
  "commit",
  "stash",
  "reset",
  "restore",
  "read-tree",
  // Writing the tree rewrites the index, re-reading racily clean files (changed in the second the index was written).
  "write-tree",
  "apply",
  "merge",
  "cherry-pick",
  "rebase",
]);
/** Subcommands that may render a diff: never through an external program or a textconv filter. */
const DIFF_COMMANDS = new Set(["diff", "log", "show"]);

/** Scopes whose filter drivers the model cannot have written (the sandbox keeps it out of the home folder and /etc). */
const TRUSTED_SCOPES = new Set(["system", "global"]);

/**
 * The environment yolo's git commands get: an allow-list of `base` (no API key, no GITHUB_TOKEN, no AWS_*), with
 * no pager, no editor, no prompts, the C locale, no system attributes, and the hardened settings plus `extra`.
 */
export function gitEnv(base: NodeJS.ProcessEnv, extra: readonly (readonly [string, string])[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isSecretName(name)) continue;
    if (GIT_ENV_ALLOW.some((allowed) => (allowed.endsWith("_") ? name.startsWith(allowed) : name === allowed))) env[name] = value;
  }
  const config = [...HARDENED_CONFIG, ...extra];
  Object.assign(env, {
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_EDITOR: ":",
    GIT_SEQUENCE_EDITOR: ":",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
    GIT_CONFIG_COUNT: String(config.length),
  });
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** The subcommand of a git argv (after any `-c key=value` and `-C dir` options), or null. */
export function subcommandOf(args: readonly string[]): { name: string; index: number } | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-c" || arg === "-C") {
      i++;
      continue;
    }
    if (!arg.startsWith("-")) return { name: arg, index: i };
  }
  return null;
}

/**
 * The argv with the per-command safety flags added: `--no-pager` always, `--no-ext-diff --no-textconv` where a diff
 * may be shown, and `--no-verify --no-gpg-sign` on commits.
 */
export function hardenArgs(args: readonly string[]): string[] {
  const sub = subcommandOf(args);
  const out = [...args];
  if (sub) {
    const flags = DIFF_COMMANDS.has(sub.name) ? ["--no-ext-diff", "--no-textconv"] : sub.name === "commit" ? ["--no-verify", "--no-gpg-sign"] : [];
    out.splice(sub.index + 1, 0, ...flags);
  }
  return ["--no-pager", ...out];
}

/**
 * Filter drivers (`filter.<x>.clean/smudge/process`) that the repository's own config defines (local, worktree or
 * included from there): each becomes an empty, optional filter for this command. A filter is named by an attribute
 * (`.gitattributes`, `.git/info/attributes`, macros), which cannot be enumerated reliably; the drivers can.
 */
export async function untrustedFilters(root: string, env: Record<string, string>): Promise<[string, string][]> {
  return (await readRepoConfig(root, env, false)).filters;
}

/** What a run's start reads of the repository's config, in one git command: its filter drivers and its origin. */
export interface RepoConfig {
  /** untrustedFilters' answer. */
  filters: [string, string][];
  /** `remote.origin.url` as `git config --get` gives it (the last value), or null. */
  originUrl: string | null;
}

/** untrustedFilters and `remote.origin.url` together (a new thread's start needs both: one git process fewer). */
export function repoConfig(root: string, env: Record<string, string>): Promise<RepoConfig> {
  return readRepoConfig(root, env, true);
}

async function readRepoConfig(root: string, env: Record<string, string>, withOrigin: boolean): Promise<RepoConfig> {
  // `-z --show-scope`: "<scope>\0<name>\n<value>\0" per entry ("<scope>\0<name>\0" with --name-only or no value).
  const args = withOrigin
    ? ["--no-pager", "config", "-z", "--show-scope", "--get-regexp", "^(filter\\..*|remote\\.origin\\.url)$"]
    : ["--no-pager", "config", "-z", "--show-scope", "--name-only", "--get-regexp", "^filter\\."];
  let out: string;
  try {
    out = (await spawnGit(args, root, env)).stdout;
  } catch {
    return { filters: [], originUrl: null };
  }
  const parts = out.split("\0");
  const drivers = new Set<string>();
  let originUrl: string | null = null;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i];
    const newline = parts[i + 1].indexOf("\n");
    const name = newline < 0 ? parts[i + 1] : parts[i + 1].slice(0, newline);
    if (name === "remote.origin.url") {
      originUrl = newline < 0 ? null : parts[i + 1].slice(newline + 1);
      continue;
    }
    if (TRUSTED_SCOPES.has(scope)) continue;
    const match = /^filter\.(.+)\.[^.]+$/s.exec(name);
    if (match) drivers.add(match[1]);
  }
  const filters = [...drivers].flatMap(
    (d) =>
      [
        [`filter.${d}.clean`, ""],
        [`filter.${d}.smudge`, ""],
        [`filter.${d}.process`, ""],
        [`filter.${d}.required`, "false"],
      ] as [string, string][],
  );
  return { filters, originUrl };
}

/** Whether a subcommand reads or writes work-tree content (so attribute filters must be neutralised first). */
export function touchesContent(args: readonly string[]): boolean {
  const sub = subcommandOf(args);
  return sub !== null && CONTENT_COMMANDS.has(sub.name);
}
