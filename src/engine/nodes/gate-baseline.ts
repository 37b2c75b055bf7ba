import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { join } from "node:path";
import { writeRecord, type BaselineRecord } from "../../gates/baseline-record.js";
import { resolveGateDefinition } from "../../gates/definition.js";
import { sayNotice } from "../notices.js";
import { runGatesWithTests } from "../../gates/run-gates.js";
import { isMonorepo } from "../../gates/scope-plan.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { scrubEnv } from "../../secrets/env.js";
import type { EngineDeps } from "../deps.js";
import type { PipelineStateType, PipelineUpdate } from "../state.js";
import { emitter, threadIdOf } from "./context.js";
import { missingGate, workflowGates } from "../run/gate-required.js";
import { treeNow } from "./gate-tree.js";

/** The graph node that takes a `run` thread's gate baseline; it runs first, before any agent. */
export const BASELINE_NODE = "gate_baseline";

// Light enough for a run's start (it refuses a run without a required gate before saying it started).
export { missingGate, workflowGates } from "../run/gate-required.js";

/**
 * Records what defines the gates and runs them once, before any agent has changed a file, so every later run is
 * judged against it (a test that passed here and fails later is a regression; one failing here is pre-existing).
 * Safe to repeat: a kill during it leaves no checkpoint of it, and the node runs again from its top on resume;
 * the record is written atomically and the state references it only once the node completes.
 */
export function gateBaselineNode(deps: EngineDeps) {
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    if (state.mode !== "run" || state.gateBaseline) return {};
    const emit = emitter(config);
    const reason = missingGate(deps);
    if (reason) {
      emit({ type: "warning", message: sayNotice({ kind: "no-gate", reason }, deps.noticeWords) });
      return { gateBaseline: { file: null, noGate: reason, gates: [] } };
    }
    const gates = workflowGates(deps.config.workflow, deps.gates);
    const dir = threadArtifactsDir(deps.config.stateDir, threadIdOf(config));
    const definition = await resolveGateDefinition(deps.config.root, deps.gates, [deps.config.stateDir]);
    // In a monorepo the baseline says it ran everything: later runs may cover only the changed workspaces.
    const tree = await treeNow(deps.config.root);
    const said = isMonorepo(deps.config.root) ? { scope: { kind: "all" as const, units: [], reason: "the baseline runs the whole suite" } } : {};
    const runs = await runGatesWithTests(gates, {
      root: deps.config.root,
      env: scrubEnv(deps.baseEnv, deps.secretEnvNames),
      capBytes: deps.config.limits.outputCapBytes,
      attempt: 0,
      baseline: true,
      logDir: join(dir, "gates"),
      signal: config.signal,
      commands: deps.commands,
      onStart: (gate) => emit({ type: "gate.started", node: BASELINE_NODE, name: gate.name, command: gate.command, attempt: 0, baseline: true, ...said }),
    });
    // A stopped baseline is not a baseline: leave no checkpoint, so a resume takes it again whole.
    if (config.signal?.aborted || runs.length < gates.length) throw new Error("the gate baseline was interrupted");
    for (const run of runs) emit({ type: "gate.result", node: BASELINE_NODE, gate: { ...run.result, ...said } });
    const record: BaselineRecord = {
      definition,
      tree,
      gates: runs.map(({ result, tests }) => ({
        name: result.name,
        passed: result.passed,
        passedCount: result.passedCount,
        failedCount: result.failedCount,
        tests,
      })),
    };
    const file = join(dir, "gate-baseline.json");
    await writeRecord(file, record);
    return {
      gateBaseline: {
        file,
        noGate: null,
        gates: runs.map(({ result }) => ({
          name: result.name,
          passed: result.passed,
          passedCount: result.passedCount,
          failedCount: result.failedCount,
          tests: result.tests ?? null,
        })),
      },
    };
  };
}
