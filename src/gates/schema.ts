import { z } from "zod";

/** One gate as `yolo.config.ts` writes it: gates own their definition, the config schema embeds it. */
export const gateSchema = z.strictObject({
  name: z.string().min(1),
  command: z.string().min(1),
  /** A failing required gate blocks the run; an optional one is reported only. */
  required: z.boolean().default(true),
  timeoutS: z.number().positive().default(600),
  /**
   * JUnit XML files the command writes (paths or globs relative to the project root), read after each run for
   * per-test results; detected gates set it where their runner writes such reports (Maven, Gradle, …).
   */
  reports: z.array(z.string().min(1)).optional(),
  /**
   * How failures already there at the thread's baseline count: "strict" (the default when absent) makes them the
   * task's targets, which block until they pass; "report" (an opt-in) lists them as pre-existing and lets them pass;
   * "findings" (for a lint or type check, which lists findings, not tests) compares the output's lines with the
   * baseline's: green at the baseline and red now blocks, a red gate blocks only on a finding the baseline did not
   * have, whether the gate is required or not; optional, its environment failing at the baseline does not stop the
   * run. Detected lint and type-check gates use "findings".
   */
  baseline: z.enum(["report", "strict", "findings"]).optional(),
  /**
   * Tests of this gate broken for reasons outside any task: full test ids or the tests' own names, `*` a wildcard.
   * They are reported as known failures and never block (only a person declares them, never the model).
   */
  knownFailures: z.array(z.string().trim().min(1)).optional(),
  /**
   * A configured gate runs as written unless this is "changed": then, in a monorepo and when the command is one
   * yolo detects (`npm test`, `pnpm test`, `cargo test --workspace`, the Go per-module loop), a gate run covers only
   * the workspaces a change touches (docs/gates.md, "Monorepos"). Absent or "all": the whole suite.
   */
  scope: z.enum(["changed", "all"]).optional(),
  /**
   * Variables this gate's command gets on top of the user's own environment (after secrets and the allow-list are
   * applied: these are the user's words). yolo adds no colour or CI variables itself; a suite that needs them
   * (`FORCE_COLOR`, `CI`) names them here.
   */
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a variable name"), z.string()).optional(),
});

/** A gate after parsing (defaults applied). */
export type GateConfig = z.output<typeof gateSchema>;
