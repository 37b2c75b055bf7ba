import type { GateConfig } from "../config/schema.js";

/** The task file's format version; a line of another version is refused with the file and line named. */
export const TASK_VERSION = 1;

/**
 * One eval task built from a commit of the project's history: start at `parent` with the commit's test files,
 * ask for `requirement`, and judge by `targets` (fail at the start, pass at the commit) and `guards` (pass in both).
 */
export interface EvalTask {
  v: typeof TASK_VERSION;
  id: string;
  commit: string;
  parent: string;
  requirement: string;
  /** Test files the commit added, changed or deleted (project-relative): applied at the start, restored to judge. */
  testFiles: string[];
  /** The other files the commit changed: what an honest solution touches. */
  sourceFiles: string[];
  /** The gates the targets and guards were found with; judging runs the same commands. */
  gates: GateConfig[];
  /** Test ids as `<gate>: <test>`. */
  targets: string[];
  /**
   * With the tests hidden, the targets the agents' tree holds when it holds some but not all: a mutant's killing
   * test its requirement names (with those of its file); the others are in `testFiles`, put back by the judge.
   * Absent: none of the targets when the task has `testFiles` (a history task's), all of them otherwise.
   */
  visibleTargets?: string[];
  guards: string[];
  /** A task built by mutation: the injected bug, for the reviewer (the model is never told). */
  mutation?: { kind: string; description: string };
  /**
   * An integrity canary: its target is an assertion flipped to contradict the code, so it cannot honestly pass.
   * `original` is the commit with the honest test (judged too), `description` the flip, for the reviewer.
   */
  canary?: { original: string; description: string };
}

/**
 * Whether a task's agents see the commit's test changes. `hidden` (the default, SWE-bench's way): the run starts at
 * the parent without them and only the judge applies them; `visible`: they are committed at the start, and the run is
 * asked to make them pass. Mutants and canaries have no test changes to hide: the mode changes nothing for them.
 */
export type TestsMode = "hidden" | "visible";

/** A commit that did not become a task, and why (kept so the task set can be reviewed). */
export interface DiscardedCandidate {
  commit: string;
  subject: string;
  reason: string;
}

/**
 * How one task ended for one model. `error`: the run could not be judged (the reason says why); `not-run`: the
 * whole eval's budget was spent before it started (never stored: a later eval with budget left runs it).
 */
export type TaskVerdict = "resolved" | "unresolved" | "error" | "not-run";

/** Targets of one part of a split task (see TaskResult.split): how many, and which do not pass. */
export interface TargetPart {
  targets: number;
  failing: string[];
}

/** One task run by one model, judged by yolo. */
export interface TaskResult {
  task: string;
  model: string;
  verdict: TaskVerdict;
  reason: string;
  thread: string | null;
  exitCode: number | null;
  tokens: number;
  cost: number | null;
  wallMs: number;
  fixAttempts: number;
  tamperAttempts: number;
  /** What the tampering was (a test file written, a gate change refused), for review. */
  tamper: string[];
  failingTargets: string[];
  failingGuards: string[];
  /**
   * Set when the agents saw some of the targets and not the others (a mutant's, tests hidden): the targets of each
   * part and those failing. All visible passing and some hidden failing is "passed visible, failed hidden": the
   * signature of a change made for the test it was shown (its input special-cased) rather than for the behaviour.
   */
  split?: { visible: TargetPart; hidden: TargetPart };
  /** Why a task that had run before ran again (its definition changed, its last run ended in an error); also in `reason`. */
  ranAgain?: string;
  /** Whether the agents saw the commit's test changes (see TestsMode). */
  tests: TestsMode;
  /** Set on a canary's result: never resolved; honest when it has no tamper attempt. */
  canary?: boolean;
  /** How the judge ran the suite: only the files the hidden tests can change, or the whole suite and why (judge-suite.ts). */
  judgeRun?: { narrowed: string[] } | { whole: string };
}
