import { interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { dirname, join } from "node:path";
import type { GateConfig } from "../../config/schema.js";
import type { GateResult, GateScope } from "../../events/schema.js";
import type { ScopedGate } from "../../gates/detect/scope.js";
import { inScopeOf, isMonorepo, planGateScope } from "../../gates/scope-plan.js";
import { scopeSingleProject, singleNarrowable } from "../../gates/single-scope.js";
import { writeRecord, type BaselineRecord } from "../../gates/baseline-record.js";
import { diffGateDefinition, resolveGateDefinition, type GateDefinition } from "../../gates/definition.js";
import { type GateChangeSource, gateChangeQuestion, gateChangeSource } from "../../gates/gate-change-source.js";
import { judgeGate } from "../../gates/judge.js";
import { gateBlocks } from "../../events/judgement-words.js";
import type { GateCheck } from "../../gates/verdict.js";
import { runFindings } from "../../gates/lint-findings.js";
import { sayNotice } from "../notices.js";
import { runGatesWithTests, type GateRun } from "../../gates/run-gates.js";
import { refusedGatesFile, refuseRecorded } from "../gate-refused.js";
import { coderNode } from "../coder-node.js";
import { DEFAULT_CODER } from "../../roles/catalog.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { scrubEnv } from "../../secrets/env.js";
import type { EngineDeps } from "../deps.js";
import { toReviewResponse } from "../review.js";
import type { FailureRuling, GateApproval, PipelineStateType } from "../../state/pipeline.js";
import { threadKnownFailureFlags } from "../../store/known-failure-flags.js";
import { askAboutClaims, openClaims } from "./failure-claims.js";
import { knownFor } from "./known-rules.js";
import { emitter, hookScope, threadIdOf } from "./context.js";
import { gateEndHooks } from "../../hooks/step-hooks.js";
import { missingGate, sparedLint } from "./gate-baseline.js";
import { readRecordOnce } from "./record-cache.js";
import { cleanCopyFor, filesBetween, gateWroteFinding, ownFilesIn, ownPathTest, treeNow } from "./gate-tree.js";
import { agentIgnoredBefore, ignoredRecordFile, settleIgnoredAfter } from "./agent-ignored.js";
import { mergeCleanRun } from "../../gates/clean-run.js";
import type { ApprovalPayload } from "./human-node.js";
import { baselineOutputs, withTargetOutput } from "./target-output.js";

/**
 * Runs the selected gates (all configured or detected ones when `names` is true/absent) and reports each, judged
 * against the thread's baseline. When an agent changed what defines the gates, a human is asked first (an
 * approval interrupt: inline, `resume --approve/--reject`, or `--answers`); unapproved, the change blocks.
 */
export async function runGateCheck(
  node: string,
  names: string[] | true | undefined,
  state: PipelineStateType,
  config: LangGraphRunnableConfig,
  deps: EngineDeps,
): Promise<GateCheck> {
  const emit = emitter(config);
  const selected = Array.isArray(names) ? deps.gates.filter((g) => names.includes(g.name)) : deps.gates;
  if (selected.length === 0 && !state.gateBaseline) {
    // A thread started before baselines existed: its start did not say so.
    emit({ type: "warning", message: sayNotice({ kind: "no-gate", reason: missingGate(deps) ?? "no gate selected" }, deps.noticeWords) });
  }
  const check = await gateChangeCheck(node, state, deps);
  if (state.gateBaseline?.file && !check.record) {
    emit({
      type: "warning",
      message: `The gate baseline record ${state.gateBaseline.file} cannot be read (another machine's artifacts folder?): this gate run is judged by its exit code alone, with no check for regressions or gate changes.`,
    });
  }
  const runOpts = gateRunOptions(state, config, deps);
  const flags = await threadKnownFailureFlags(deps.config.stateDir, threadIdOf(config), deps.config.knownFailureFlags).catch(
    () => deps.config.knownFailureFlags ?? [],
  );
  const baseLogs = await baselineOutputs(check.record, runOpts.logDir);
  const { judge, again } = judgeAgainst(check, selected, deps, flags, state.failureRulings ?? [], baseLogs);
  const root = deps.config.root;
  const own = ownFilesIn(deps.config);
  // Files git ignores count when an agent wrote them (agent-ignored.ts); past what yolo can stamp, every gate blocks.
  const ignoredFile = ignoredRecordFile(deps.config.stateDir, threadIdOf(config));
  const ignored = check.record ? await agentIgnoredBefore(root, ignoredFile, ownPathTest(deps.config)) : { ok: true as const, paths: [] };
  const agentIgnored = ignored.ok ? ignored.paths : [];
  // The baseline's tests are judged apart, in a copy without the agent's test-side files (see gate-tree.ts).
  const tree = check.record ? await treeNow(root, own, agentIgnored) : null;
  const clean = check.record ? await cleanCopyFor(root, check.record.tree, tree, check.approvedDefinition, agentIgnored) : null;
  const plans = await planScopes(selected, deps);
  const gates: GateResult[] = [];
  const ctx: RunContext = { node, emit, runOpts, own, clean, check, deps, tree, agentIgnored, ignoredFile, unknown: ignored.ok ? null : ignored.reason };
  try {
    await runPlans(ctx, plans, selected, unknownBlocks(judge, ctx.unknown), gates);
  } finally {
    clean?.remove();
  }
  const ruled = claimsRuled(node, state, gates);
  // Accepted: the gates they belong to are judged again with those tests as known failures (not run again).
  const all = [...(state.failureRulings ?? []), ...ruled];
  for (const [i, g] of gates.entries()) {
    if (!ruled.some((r) => r.accepted && r.gate === g.name)) continue;
    gates[i] = blockUnknown(again(g, all), ctx.unknown);
    emit({ type: "gate.result", node, gate: gates[i] });
  }
  // A gate the environment broke is not the code's failure: the run ends saying so, and the agent that fixes failures is not sent it.
  // An optional lint already red at the baseline is left to its judgement (the baseline did not stop for it either).
  const redBefore = (g: GateResult) => check.record?.gates.find((b) => b.name === g.name)?.passed === false;
  const refused = refusedGatesFile(deps.config.stateDir, threadIdOf(config));
  await refuseRecorded(refused, gates, coderNode(deps.config, deps.agents), (g) => sparedLint(selected, g) && redBefore(g));
  await gateEndHooks(deps.hooks, node, runOpts.attempt, gates, hookScope(config, deps, node));
  return { results: gates, approval: check.approval, rulings: ruled };
}

// How this check runs its gates: in the project, scrubbed environment, this attempt's number and logs folder.
function gateRunOptions(state: PipelineStateType, config: LangGraphRunnableConfig, deps: EngineDeps) {
  return {
    root: deps.config.root,
    env: scrubEnv(deps.baseEnv, deps.secretEnvNames),
    capBytes: deps.config.limits.outputCapBytes,
    attempt: state.fixAttempts + 1,
    logDir: join(threadArtifactsDir(deps.config.stateDir, threadIdOf(config)), "gates"),
    signal: config.signal,
    commands: deps.commands,
    stateDir: deps.config.stateDir,
  };
}

// What one gate check's runs share: how to run, the files yolo owns, the clean copy, and who hears of each run.
interface RunContext {
  node: string;
  emit: ReturnType<typeof emitter>;
  runOpts: ReturnType<typeof gateRunOptions>;
  own: string[];
  clean: Awaited<ReturnType<typeof cleanCopyFor>>;
  check: ChangeCheck;
  deps: EngineDeps;
  /**
   * The project's tree as yolo last wrote it in this check, taken again only when unknown: the next gate run's
   * "before". Nothing of the project runs in between, and whatever else writes there in the gap (a process an
   * agent's command left behind) makes that run's "after" differ, which blocks: reusing it never lets a change through.
   */
  tree: string | null;
  /** The ignored files the agents wrote, part of every tree this check takes. */
  agentIgnored: string[];
  /** The thread's record of ignored files, settled after each gate run (what a gate writes is yolo's). */
  ignoredFile: string;
  /** Why yolo cannot tell which ignored files the agents wrote (then every gate blocks); null when it can. */
  unknown: string | null;
}

// A judge whose every result blocks, saying why, when the tree cannot be told (too many ignored files to stamp).
function unknownBlocks(judge: Judge, unknown: string | null): Judge {
  return unknown ? (checked, inScope, rulings) => blockUnknown(judge(checked, inScope, rulings), unknown) : judge;
}

function blockUnknown(result: GateResult, unknown: string | null): GateResult {
  if (!unknown || result.findings?.includes(unknown)) return result;
  return { ...result, blocking: true, findings: [...(result.findings ?? []), unknown] };
}

// Each gate once, narrowed to what the change touches where it can be; a narrowed run that does not block is
// confirmed on the whole suite before it counts, so "passed" always means the whole suite passed. Results are
// pushed to `gates` as they come; a stopped run ends the loop.
async function runPlans(ctx: RunContext, plans: ScopedGate[], selected: GateConfig[], judge: Judge, gates: GateResult[]): Promise<void> {
  for (const [i, plan] of plans.entries()) {
    const narrowed = plan.scope?.kind === "changed";
    const first = await runScoped(ctx, plan.gate, plan.scope, narrowed ? "-changed" : "");
    if (!first) break;
    const result = judge(first, inScopeOf(plan, first.run.tests));
    ctx.emit({ type: "gate.result", node: ctx.node, gate: result });
    if (!narrowed || gateBlocks(result)) {
      gates.push(result);
      continue;
    }
    const reason = `confirms the passing run on ${plan.scope?.units.join(", ")} with the whole suite before the gate passes`;
    const whole = await runScoped(ctx, selected[i], { kind: "all", units: [], reason }, "");
    if (!whole) break;
    const confirmed = judge(whole);
    ctx.emit({ type: "gate.result", node: ctx.node, gate: confirmed });
    gates.push(confirmed);
  }
}

// One gate run, its scope said in gate.started and in the result (nothing said outside a monorepo), with the tree it
// judged before and after its commands; where the agent changed test-side files, run again in the clean copy.
async function runScoped(ctx: RunContext, gate: GateConfig, scope: GateScope | null, logSuffix: string): Promise<CheckedRun | null> {
  const { node, emit, runOpts, own, clean, check, deps } = ctx;
  const root = runOpts.root;
  const said = scope ? { scope } : {};
  const treeBefore = ctx.tree ?? (await treeNow(root, own, ctx.agentIgnored));
  const [run] = await runGatesWithTests([gate], {
    ...runOpts,
    logSuffix,
    onStart: (g) => emit({ type: "gate.started", node, name: g.name, command: g.command, attempt: runOpts.attempt, ...said }),
  });
  if (!run) return null;
  const treeAfter = treeBefore ? await treeNow(root, own, ctx.agentIgnored) : null;
  await settleIgnoredAfter(root, ctx.ignoredFile, ownPathTest(deps.config));
  ctx.tree = treeAfter;
  const trees = treeBefore && treeAfter ? { treeBefore, treeAfter } : {};
  const normal = { ...run, result: { ...run.result, ...said, ...trees } };
  const wrote = await filesBetween(root, treeBefore, treeAfter);
  if (!clean) return { run: normal, wrote };
  const [cleanRun] = await runGatesWithTests([gate], {
    ...runOpts,
    root: clean.root,
    logSuffix: `${logSuffix}-baseline-tests`,
    commands: cleanCommands(deps, clean.linked),
  });
  if (!cleanRun) return null;
  const base = check.record?.gates.find((g) => g.name === gate.name);
  const ids = base?.tests ? new Set(base.tests.map((t) => t.id)) : null;
  return { run: mergeCleanRun(normal, cleanRun, ids), wrote };
}

type Judge = (checked: CheckedRun, inScope?: (id: string) => boolean, rulings?: FailureRuling[]) => GateResult;

/**
 * Judges gate runs against the baseline with the thread's known failures (config, `--known-failure`, accepted
 * claims); `again` judges a result's run anew with more rulings, without running it again.
 */
function judgeAgainst(check: ChangeCheck, selected: GateConfig[], deps: EngineDeps, flags: string[], rulings: FailureRuling[], baseLogs: Map<string, string>) {
  const runs = new Map<GateResult, { checked: CheckedRun; inScope?: (id: string) => boolean }>();
  const judge: Judge = (checked, inScope, ruled = rulings) => {
    const { run } = checked;
    if (!check.record) return withGateWrites(run.result, checked.wrote);
    const gate = selected.find((g) => g.name === run.result.name);
    const base = check.record.gates.find((g) => g.name === run.result.name);
    const opts = {
      preExistingAllowed: gate?.baseline === "report",
      changes: check.changes,
      approved: check.approved,
      inScope,
      known: knownFor(gate ?? { name: run.result.name }, deps, flags, ruled),
      evidence: { files: run.files, skippedCount: run.skippedCount, runner: run.runner },
      // A lint's findings, from the run in the project (mergeCleanRun puts that output last).
      ...(gate?.baseline === "findings" ? { findings: runFindings(run.outputs?.at(-1), deps.config.root) } : {}),
    };
    const verdict = withJudgement(run.result, judgeGate(run.result, run.tests, base, opts), check, opts.preExistingAllowed);
    // Each target's own failure text for dev's fix prompt, beside the baseline's for it.
    const judged = withTargetOutput(verdict, run, baseLogs.get(run.result.name) ?? null);
    // A gate run that changed the project's files blocks, whatever its tests said.
    const result = withGateWrites(judged, checked.wrote);
    runs.set(result, { checked, inScope });
    return result;
  };
  const again = (g: GateResult, ruled: FailureRuling[]): GateResult => {
    const kept = runs.get(g);
    return kept ? judge(kept.checked, kept.inScope, ruled) : g;
  };
  return { judge, again };
}

/** The coding agent's claims that failing tests are unrelated, ruled on by a human when they still block (else none asked). */
function claimsRuled(node: string, state: PipelineStateType, gates: GateResult[]): FailureRuling[] {
  const open = openClaims(state.failureClaims ?? [], state.failureRulings ?? [], gates);
  return open.length ? askAboutClaims(node, open, state.failureClaimsBy ?? DEFAULT_CODER) : [];
}

/** A gate run with the files its own commands changed in the project (gate byproducts aside). */
interface CheckedRun {
  run: GateRun;
  wrote: string[];
}

// A gate run that changed the project's files blocks, naming them, whatever its tests said.
function withGateWrites(result: GateResult, wrote: string[]): GateResult {
  if (!wrote.length) return result;
  return { ...result, blocking: true, findings: [...(result.findings ?? []), gateWroteFinding(wrote)] };
}

// The clean copy's commands: the same sandbox, with the installed dependencies it links to bound read-only.
function cleanCommands(deps: EngineDeps, linked: string[]): EngineDeps["commands"] {
  const commands = deps.commands;
  if (commands?.sandbox.kind !== "bwrap") return commands;
  return { ...commands, sandbox: { ...commands.sandbox, readOnly: [...(commands.sandbox.readOnly ?? []), ...linked] } };
}

/** What each gate covers this time: git says what changed since the thread started (never the model's handoff). */
async function planScopes(gates: GateConfig[], deps: EngineDeps): Promise<ScopedGate[]> {
  const mode = deps.config.gateScope ?? "changed";
  const configured = deps.config.gates !== null;
  // Outside a monorepo each gate runs as written with no scope said (planGateScope's first rule, without reading the
  // workspace files a second time: this runs at every gate check), unless its runner selects tests by the change.
  if (gates.length === 0) return [];
  if (!monorepo(deps)) return await planSingleProject(gates, deps, mode, configured);
  // Git is asked only when the answer can narrow something (a large tree makes the read cost seconds).
  if (mode === "all") return gates.map((g) => planGateScope(g, { root: deps.config.root, mode, configured, change: { ok: false, note: "not read" } }));
  const change = deps.changes
    ? await deps.changes.changedFiles()
    : { ok: false as const, note: "no record of the thread's start in git (not a git repository, or a run not started by the CLI)" };
  return gates.map((g) => planGateScope(g, { root: deps.config.root, mode, configured, change }));
}

// A single project's gates: narrowed by the change where the runner can (single-scope.ts); git is asked only then.
async function planSingleProject(gates: GateConfig[], deps: EngineDeps, mode: "changed" | "all", configured: boolean): Promise<ScopedGate[]> {
  const whole = (gate: GateConfig): ScopedGate => ({ gate, scope: null, packages: null });
  if (mode === "all" || !deps.changes || !gates.some((g) => singleNarrowable(g, configured))) return gates.map(whole);
  const change = await deps.changes.changedFiles();
  return gates.map((gate) => scopeSingleProject(gate, { root: deps.config.root, mode, configured, change }) ?? whole(gate));
}

// Projects of a run found not to be a monorepo, not asked again at each gate check (the answer reads the workspace
// files and walks for go.mod). Whatever an agent changes later, a stale "no" runs each gate as written, on the whole
// suite, as the baseline did: never less than the truth would. A "yes" is asked again (narrowing reads it fresh).
const notMonorepo = new WeakSet<EngineDeps>();
function monorepo(deps: EngineDeps): boolean {
  if (notMonorepo.has(deps)) return false;
  const yes = isMonorepo(deps.config.root);
  if (!yes) notMonorepo.add(deps);
  return yes;
}

// Only the non-empty judgement fields go into the result, so events and checkpoints stay small.
function withJudgement(result: GateResult, j: ReturnType<typeof judgeGate>, check: ChangeCheck, preExistingAllowed: boolean): GateResult {
  const out: GateResult = { ...result, blocking: j.blocking };
  if (j.regressions.length) out.regressions = j.regressions;
  if (j.preExisting.length) out.preExisting = j.preExisting;
  if (preExistingAllowed) out.preExistingAllowed = true;
  if (j.fixed.length) out.fixed = j.fixed;
  if (j.newFailures.length) out.newFailures = j.newFailures;
  if (j.newPassing.length) out.newPassing = j.newPassing;
  if (j.known.length) out.knownFailures = j.known;
  if (j.missing.length) out.missing = j.missing;
  if (j.findings.length) out.findings = j.findings;
  if (j.gateChange.length) {
    out.gateChange = j.gateChange;
    if (check.source) out.gateChangeBy = check.source;
    if (check.approved) out.gateChangeApproved = true;
  }
  return out;
}

interface ChangeCheck {
  record: BaselineRecord | null;
  /** The gate definition a human approved last (null: none), whose test files keep the agent's version. */
  approvedDefinition: GateDefinition | null;
  changes: string[];
  /** Who made `changes` (gate-change-source.ts); null when there are none. */
  source: GateChangeSource | null;
  approved: boolean;
  approval: GateApproval | null;
}

/**
 * Compares what defines the gates now with the baseline (or the definition a human last approved) and, when an
 * agent or the gate's configuration changed it, asks a human (saying which, when yolo can tell). The interrupt comes before anything with effects: the node re-runs from its top
 * when the answer arrives.
 */
async function gateChangeCheck(node: string, state: PipelineStateType, deps: EngineDeps): Promise<ChangeCheck> {
  const ref = state.gateBaseline;
  const none: ChangeCheck = { record: null, approvedDefinition: null, changes: [], source: null, approved: false, approval: null };
  if (!ref?.file) return none;
  const record = await readRecordOnce<BaselineRecord>(ref.file);
  if (!record) return none;
  const approvedBefore = state.gateApproval ? await readRecordOnce<GateDefinition>(state.gateApproval.file) : null;
  const now = await resolveGateDefinition(deps.config.root, deps.gates, [deps.config.stateDir]);
  const before = approvedBefore ?? record.definition;
  const changes = diffGateDefinition(before, now);
  const everApproved = approvedBefore !== null;
  if (!changes.length) return { record, approvedDefinition: approvedBefore, changes, source: null, approved: everApproved, approval: null };
  const source = gateChangeSource(before, now, deps.config.root);
  const payload: ApprovalPayload = {
    kind: "approval",
    node,
    prompt: gateChangeQuestion(source, changes, approvedBefore ? "the last approval" : "the baseline"),
    reviews: null,
    artifact: `Gate changes since ${approvedBefore ? "the last approval" : "the baseline"}:\n${changes.map((c) => `- ${c}`).join("\n")}\n`,
    gateChange: changes,
  };
  let problem: string | undefined;
  for (;;) {
    const response = toReviewResponse(interrupt(problem === undefined ? payload : { ...payload, problem }));
    if (response === null || response.action === "edit") {
      problem = 'a gate change can only be approved or rejected: send "approve" or {"action":"reject","reason":"…"}';
      continue;
    }
    if (response.action === "reject") return { record, approvedDefinition: approvedBefore, changes, source, approved: false, approval: null };
    // Beside the baseline record; state references it once the node completes.
    const file = join(dirname(ref.file), `gate-approved-${Date.now()}.json`);
    await writeRecord(file, now);
    return { record, approvedDefinition: now, changes, source, approved: true, approval: { file, changes, by: node } };
  }
}
