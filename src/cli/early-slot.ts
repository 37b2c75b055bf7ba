// Where bin/yolo.js leaves the git reads and sandbox trial it began (src/cli/early-probes.ts, built on its own as
// dist/cli/early-probes.cjs) for the CLI to take: a slot on the process, the one thing the shim's copy of these modules
// and the CLI's (an ES module chunk or the run bundle) share. Only data crosses it, never a class instance. Kept apart
// from early-probes.ts so main.ts can ask about it without loading git's modules.

/** What the slot holds: the probes and what they were started for. */
export interface EarlySlot<P> {
  root: string;
  mode: "start" | "resume";
  path: string | undefined;
  probes: P;
}

const SLOT = Symbol.for("yolo.early-probes");
type Holder = { [key: symbol]: EarlySlot<unknown> | undefined };

export function fillSlot<P>(value: EarlySlot<P>): void {
  (globalThis as Holder)[SLOT] = value;
}

/** Empties the slot and returns what it held. */
export function emptySlot<P>(): EarlySlot<P> | undefined {
  const found = (globalThis as Holder)[SLOT] as EarlySlot<P> | undefined;
  delete (globalThis as Holder)[SLOT];
  if (found) (globalThis as Holder)[TAKEN] = found;
  return found;
}

// The slot's last value once taken, for releaseEarlyReads.
const TAKEN = Symbol.for("yolo.early-probes.taken");

/**
 * At the command's end: the reads the CLI took are released (EarlyReads.release), so one still running in their
 * process (bubblewrap's trial, not needed with the sandbox off) does not hold the exit until it ends.
 */
export function releaseEarlyReads(): void {
  const taken = (globalThis as Holder)[TAKEN] as EarlySlot<{ release?(): void }> | undefined;
  delete (globalThis as Holder)[TAKEN];
  taken?.probes.release?.();
}

/** Whether probes the shim began were never taken: the command stopped before it asked (a bad config, say). */
export function earlyProbesLeft(): boolean {
  return (globalThis as Holder)[SLOT] !== undefined;
}
