// The messages between yolo and its spawner helper process (src/exec/spawner-child.ts), over Node's IPC channel with
// `serialization: "advanced"` (output crosses as bytes, environments keep their undefined values).

/** Bumped whenever a message changes shape: a helper built from other sources is not used. */
export const SPAWNER_PROTOCOL = 2;

/** yolo → helper. */
export type ToSpawner =
  | { t: "run"; id: number; file: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv }
  /** Stop reading the command's pipes (yolo has waited long enough after the shell's exit). */
  | { t: "release"; id: number };

/** helper → yolo. */
export type FromSpawner =
  | { t: "ready"; protocol: number }
  | { t: "pid"; id: number; pid: number }
  /** Nothing was started (the file, the cwd, an argument Node refuses): yolo starts it directly for the same error. */
  | { t: "failed"; id: number; message: string }
  /** Output in arrival order; `err` marks the command's stderr (git's callers read its stdout alone). */
  | { t: "out"; id: number; data: Uint8Array; err?: true }
  | { t: "exit"; id: number; code: number | null }
  /** Both pipes are closed: the command's output is complete. */
  | { t: "closed"; id: number };
