import { z } from "zod";

/**
 * Every option of `yolo run`, `agent`, `chat` and `resume`, as the command line gives them (absent: not given).
 * The one description of these options: the config resolver's, the run set-up's and the commands' flag types are
 * picked from it (tests/unit/config/run-flags.test.ts holds it equal to the options the CLI registers).
 */
export const runFlagsSchema = z
  .object({
    json: z.boolean(),
    /** With --json: also the model's text and thoughts as they stream (`token`, `thought` events). */
    jsonTokens: z.boolean(),
    tui: z.boolean(),
    verbose: z.boolean(),
    ci: z.boolean(),
    model: z.string(),
    baseUrl: z.string(),
    maxFixAttempts: z.number(),
    /** This run's only gate, instead of the configured or detected ones. */
    testCmd: z.string(),
    maxTurns: z.number(),
    maxTokens: z.number(),
    maxCost: z.number(),
    maxSteps: z.number(),
    /** A duration as typed (`45m`, `1h30m`, seconds). */
    maxTime: z.string(),
    db: z.string(),
    /** true / false: given on or off; absent: yolo.config.ts decides. */
    branch: z.boolean(),
    /** Stories built at the same time (default pipeline); absent: the thread's value, else the config's. */
    parallel: z.number(),
    allowDirty: z.boolean(),
    /** Refuse a run without a gate (exit 2). */
    requireGate: z.boolean(),
    /** Tests broken for reasons outside the task (patterns, repeatable); the thread keeps them for later legs. */
    knownFailure: z.array(z.string()),
    record: z.string(),
    replay: z.string(),
    answers: z.string(),
    // resume only
    last: z.boolean(),
    answer: z.string(),
    approve: z.boolean(),
    reject: z.string(),
    edit: z.string(),
    from: z.string(),
  })
  .partial();

export type RunFlags = z.infer<typeof runFlagsSchema>;

/** The flags that override configuration (defaults < config file < environment < flags). */
export type ConfigOverrideFlags = Pick<
  RunFlags,
  | "model"
  | "baseUrl"
  | "maxFixAttempts"
  | "db"
  | "maxTurns"
  | "branch"
  | "requireGate"
  | "maxTokens"
  | "maxCost"
  | "maxSteps"
  | "maxTime"
  | "testCmd"
  | "parallel"
  | "knownFailure"
>;
