import { join } from "node:path";
import type { GateConfig } from "../../config/schema.js";
import { readRecord, writeRecord, type BaselineRecord } from "../../gates/baseline-record.js";
import { resolveGateDefinition } from "../../gates/definition.js";
import { runFindings } from "../../gates/lint-findings.js";
import { runGatesWithTests } from "../../gates/run-gates.js";
import { sayOptionalEnvironment } from "../../gates/environment-failure.js";
import { refusedGatesFile, refuseRecorded } from "../gate-refused.js";
import { coderNode } from "../coder-node.js";
import { baselineScope } from "../../gates/scope-plan.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { scrubEnv } from "../../secrets/env.js";
import type { EventBody } from "../../events/schema.js";
import type { EngineDeps } from "../deps.js";
import type { GateBaselineRef } from "../../state/pipeline.js";
import { workflowGates } from "../run/gate-required.js";
import { ownFilesIn, ownPathTest, treeNow } from "./gate-tree.js";
import { ignoredRecordFile, recordIgnoredBaseline } from "./agent-ignored.js";

/** The graph node that opens a `run` thread: it begins the gate baseline, which then runs beside the first agents (baseline-task.ts). */
export const BASELINE_NODE = "gate_baseline";

// Light enough for a run's start (it refuses a run without a required gate before saying it started).
export { missingGate, workflowGates } from "../run/gate-required.js";

/** An agent's tools by id, for baselineStep (undefined: not loaded). */
export function agentTools(deps: Pick<EngineDeps, "agents">): (id: string) => readonly string[] | undefined {
  return (id) => {
    const agent = deps.agents.get(id);
    return agent ? [...agent.tools, ...(agent.mcp ?? [])] : undefined;
  };
}

/**
 * Where a thread's baseline is recorded: every test (the record) and the state's summary of it (the ref). One JSON
 * record each, in `.jsonl` files: `.json` ones in the project were flagged by `prettier --check .` (docs/gates.md).
 * `legacy`: the names an older yolo wrote, still read.
 */
export function baselineFiles(deps: Pick<EngineDeps, "config">, threadId: string, legacy = false): { record: string; ref: string } {
  const dir = threadArtifactsDir(deps.config.stateDir, threadId);
  const ext = legacy ? "json" : "jsonl";
  return { record: join(dir, `gate-baseline.${ext}`), ref: join(dir, `gate-baseline-ref.${ext}`) };
}

/**
 * A baseline this thread already took but whose result never reached a checkpoint (the run ended, or was killed,
 * before the first node that writes completed): it was taken before anything wrote, so it still holds.
 */
export async function recordedBaseline(deps: Pick<EngineDeps, "config">, threadId: string): Promise<GateBaselineRef | null> {
  for (const files of [baselineFiles(deps, threadId), baselineFiles(deps, threadId, true)]) {
    const ref = await readRecord<GateBaselineRef>(files.ref);
    if (ref) return ref.file === files.record ? ref : null;
  }
  return null;
}

/**
 * Records what defines the gates and runs them once, before any agent has changed a file, so every later run is
 * judged against it (a test that passed here and fails later is a regression; one failing here is pre-existing).
 * A stopped run throws and leaves no record, so the next leg takes it again whole; the record and its ref are
 * written atomically once it completed.
 */
export async function takeBaseline(deps: EngineDeps, threadId: string, emit: (e: EventBody) => void, signal: AbortSignal): Promise<GateBaselineRef> {
  const gates = workflowGates(deps.config.workflow, deps.gates);
  const dir = threadArtifactsDir(deps.config.stateDir, threadId);
  const definition = await resolveGateDefinition(deps.config.root, deps.gates, [deps.config.stateDir]);
  // Hashed beside the suite, not before it: nothing has written yet (the agents beside it cannot), and the suite should
  // not wait for a hash of the whole tree.
  const treeTaken = treeNow(deps.config.root, ownFilesIn(deps.config));
  // In a monorepo the baseline says it ran everything: later runs may cover only the changed workspaces.
  const said = baselineScope(deps.config.root);
  const runs = await runGatesWithTests(gates, {
    root: deps.config.root,
    env: scrubEnv(deps.baseEnv, deps.secretEnvNames),
    capBytes: deps.config.limits.outputCapBytes,
    attempt: 0,
    baseline: true,
    logDir: join(dir, "gates"),
    signal,
    commands: deps.commands,
    stateDir: deps.config.stateDir,
    onStart: (gate) => emit({ type: "gate.started", node: BASELINE_NODE, name: gate.name, command: gate.command, attempt: 0, baseline: true, ...said }),
  });
  if (signal.aborted || runs.length < gates.length) throw new Error("the gate baseline was interrupted");
  for (const run of runs) emit({ type: "gate.result", node: BASELINE_NODE, gate: { ...run.result, ...said } });
  // A baseline the environment broke judges nothing: every later run would fail the same way, as "pre-existing". An
  // optional gate judged by its findings (a detected lint) is only reported: nobody asked for it, so it never stops the run.
  const results = runs.map((r) => r.result);
  const spared = (r: (typeof results)[number]) => sparedLint(gates, r);
  await refuseRecorded(refusedGatesFile(deps.config.stateDir, threadId), results, coderNode(deps.config, deps.agents), spared);
  for (const r of results) if (r.environment && spared(r)) emit({ type: "warning", message: sayOptionalEnvironment(r.name, r.environment) });
  const record: BaselineRecord = {
    definition,
    tree: await treeTaken,
    gates: runs.map(({ result, tests, files, skippedCount, outputs }, i) => ({
      name: result.name,
      passed: result.passed,
      passedCount: result.passedCount,
      failedCount: result.failedCount,
      tests,
      // The files the runner summed up: a later run's count for a file is compared with these (file-evidence.ts).
      ...(files?.length ? { files } : {}),
      ...(skippedCount !== undefined ? { skippedCount } : {}),
      // A lint's findings, which later runs are compared with line by line (judge-findings.ts).
      ...(gates[i]?.baseline === "findings" ? { findings: runFindings(outputs?.[0], deps.config.root) } : {}),
    })),
  };
  const files = baselineFiles(deps, threadId);
  // What git ignores is stamped now, the baseline's own output included: what changes there later is the agents'.
  await recordIgnoredBaseline(deps.config.root, ignoredRecordFile(deps.config.stateDir, threadId), ownPathTest(deps.config));
  await writeRecord(files.record, record);
  const ref: GateBaselineRef = {
    file: files.record,
    noGate: null,
    gates: runs.map(({ result }) => ({
      name: result.name,
      passed: result.passed,
      passedCount: result.passedCount,
      failedCount: result.failedCount,
      tests: result.tests ?? null,
      ...(result.reading ? { reading: result.reading } : {}),
    })),
  };
  await writeRecord(files.ref, ref);
  return ref;
}

/**
 * Whether a gate the environment broke is left to its judgement rather than ending the run: an optional gate judged
 * by its findings (a detected lint, or one written so); a gate a person configured otherwise was asked for, and stops it.
 */
export function sparedLint(gates: readonly GateConfig[], result: { name: string; required: boolean }): boolean {
  return !result.required && gates.find((g) => g.name === result.name)?.baseline === "findings";
}
