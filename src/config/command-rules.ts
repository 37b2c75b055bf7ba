// The command policy's rules and how sources combine them, without the checker (src/tools/command-policy.ts):
// resolving a config needs these (they are part of its format, so they live in src/config, below src/tools), and a
// run's start should not load the shell parser to get them.

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
  "sudo",
  "su",
  "doas",
  "pkexec",
  "runuser",
  "rm ** /",
  "rm ** /*",
  "rm ** ~",
  "rm ** ~/**",
  "rm ** $HOME",
  "rm ** $HOME/**",
  "rm ** ${HOME}",
  "rm ** ${HOME}/**",
  "rm ** ..",
  "rm ** ../**",
  "mkfs*",
  "dd ** of=/dev/*",
  "shutdown",
  "reboot",
  "halt",
  "poweroff",
  "| sh",
  "| bash",
  "| zsh",
  "| dash",
  "| ksh",
];

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
