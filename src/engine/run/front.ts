import type { FlagKey } from "../../config/resolve.js";
import type { ResolvedConfig } from "../../config/schema.js";
import type { SandboxProbe } from "../../exec/sandbox.js";
import type { WorkspaceFacts } from "../../git/workspace.js";
import type { NoticeFact } from "../../events/facts.js";
import type { RunWords } from "./options.js";

/** The git reads and bubblewrap's trial a front end started before its own code loaded (src/cli/early-reads.ts). */
export interface StartedReads {
  identity: Promise<string>;
  workspace: Promise<WorkspaceFacts>;
  snapshot: Promise<string | null> | null;
  sandbox: Promise<SandboxProbe>;
}

/** What the engine says at a leg's start about the checkout, as facts for the front end to word. */
export type SetupFact =
  | { kind: "project-nearer"; root: string; gitRoot: string }
  | { kind: "not-a-repository" }
  | { kind: "dirty-start"; dirty: string[] }
  /** A branch the thread works on; `from`: the branch checked out before (null: none known). */
  | { kind: "branch"; branch: string; from: string | null };

/**
 * What only the front end knows or words, handed to the engine's preparation of a leg: its flag names, its replies
 * file, the reads it started early, and the words of its notices and refusals. The engine decides; this says it.
 */
export interface LaunchFront {
  /** A flag as the user typed it (`maxTurns` → `--max-turns`): config problems name it. */
  flagName(flag: FlagKey): string;
  /** The reads the front end started for exactly this root and mode, taken once; null: the engine makes its own. */
  startedReads(root: string, mode: "start" | "resume"): StartedReads | null;
  /** The live view can start loading: nothing refused so far is cheaper than it. */
  preloadView(): void;
  /**
   * The front end's prepared replies (read where a new thread's agents are known valid), and their check against a
   * resumed thread's start (a file the agents could have written is refused).
   */
  replies?: { load(): Promise<void>; check(root: string, startCommit: string | null): Promise<void> };
  words: {
    run: RunWords;
    notice(fact: NoticeFact): string;
    setup(fact: SetupFact): string;
    /** An unknown thread where there is no database at all. */
    noDatabase(threadId: string, database: string): Error;
    /** A resumed thread needs a model and none is configured: the refusal of its first model request. */
    noModel(): Error;
  };
}

/** The config fields the project notice reads. */
export type ProjectPlace = Pick<ResolvedConfig, "root" | "gitRoot">;
