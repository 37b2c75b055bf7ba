/** A test command as yolo sees through it: `npm test` stands for package.json's test script. */
export interface SeenCommand {
  /** The runner's own command line: the test script for `npm test`, else the command itself. */
  line: string;
  /** Appends runner flags to the command as run: after `--` through npm, directly otherwise. */
  withFlags(flags: string): string;
}

const NPM_TEST = /^\s*npm\s+(?:test|t|run\s+test)\s*$/;
// One command, nothing chained, piped, redirected or substituted: flags appended reach the runner and nothing else.
export const SINGLE = /^[^&|;<>`$()\n\\]*$/;

/** The command yolo would append flags to, or null for one that is not a single command (or a missing script). */
export function seeCommand(command: string, scripts: Record<string, string>): SeenCommand | null {
  const trimmed = command.trim();
  if (NPM_TEST.test(trimmed)) {
    const script = scripts.test;
    if (typeof script !== "string" || !SINGLE.test(script)) return null;
    return { line: script.trim(), withFlags: (flags) => `${trimmed} -- ${flags}` };
  }
  if (!SINGLE.test(trimmed)) return null;
  return { line: trimmed, withFlags: (flags) => `${trimmed} ${flags}` };
}

/** `vitest`, `npx vitest`, `npx --no-install vitest`: the runner's name as the command's first word. */
export function startsWithRunner(line: string, name: string): boolean {
  return new RegExp(`^(?:npx\\s+(?:--no-install\\s+|--yes\\s+)?)?${name}(?:\\s|$)`).test(line);
}

/** A path as one shell word (single-quoted). */
export function shellWord(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}
