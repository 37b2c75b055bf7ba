// What runShell asks of whatever starts a command's process (Node directly, or the spawner helper process).

/** One command to start: a file and its arguments (`/bin/sh -c …`, or bubblewrap's argv) in its own process group. */
export interface LaunchRequest {
  file: string;
  args: string[];
  cwd: string;
  /** The complete environment of the command; nothing else is merged in. */
  env: NodeJS.ProcessEnv;
  /** stdout and stderr chunks in arrival order (stdout alone when onStderr is given). */
  onOutput: (chunk: Uint8Array | string) => void;
  /** stderr apart from stdout (git's output is parsed); absent: stderr goes to onOutput. Honoured by the helper only. */
  onStderr?: (chunk: Uint8Array) => void;
  /** The group leader's pid, as soon as it is known (at once when started directly, a message later through the helper). */
  onPid: (pid: number) => void;
}

export interface LaunchEnd {
  /** null when killed by a signal or never started. */
  exitCode: number | null;
  /** Why the command could not start; absent when it ran. */
  startError?: string;
}

export interface Launched {
  /**
   * Settles once the shell has exited, its group is SIGKILLed, and its pipes are read to the end (or for DRAIN_MS);
   * null when nothing was started and the command should be started directly instead (the helper could not start it).
   */
  ended: Promise<LaunchEnd | null>;
  /** The group was sent SIGKILL: an end that still does not come (a helper that stopped answering) is given up on. */
  killed(): void;
}

/**
 * After the shell has exited and its group is killed, output still in the pipes is read for this long; a process
 * that escaped the group (setsid) and still holds a pipe must not keep the call waiting for its whole lifetime.
 */
export const DRAIN_MS = 1000;
