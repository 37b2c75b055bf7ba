import { DEFAULT_TOOL_CALLS_PER_TURN } from "../../config/defaults.js";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runAgentLoop, type AgentLoopResult } from "../../agents/runner.js";
import { appendTranscript } from "../../store/artifacts.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { defaultPolicy, policyForRole } from "../../tools/command-policy.js";
import { roleHandoffJsonSchema, roleHandoffSchema } from "../../roles/handoff-schema.js";
import type { RoleRecord } from "../../roles/types.js";
import type { AgentNodeSpec } from "../../workflow/schema.js";
import type { EngineDeps } from "../deps.js";
import type { JudgedTree, PipelineStateType, PipelineUpdate, Turn } from "../../state/pipeline.js";
import { agentContext, beforeEachCall } from "./agent-context.js";
import { commitIteration } from "./commit-step.js";
import { checkVisits, emitter, finish, hookScope, threadIdOf } from "./context.js";
import { nodeEndHooks, nodeStartHooks } from "../../hooks/step-hooks.js";
import { toolHooks } from "../../hooks/tool-hooks.js";
import { parseTestOutput } from "../../gates/parse.js";
import { gateVerdict, humanWords } from "../../gates/verdict.js";
import { runGateCheck } from "./gate-check.js";
import { ownFilesIn, ownPathTest, staleGate } from "./gate-tree.js";
import { agentIgnoredNow, ignoredRecordFile } from "./agent-ignored.js";

export { changedFiles } from "../../roles/dev.js";

export interface RoleRun {
  node: string;
  agentId: string;
  role: RoleRecord;
  flags: string[];
  /** The transcript file's name when it is not the node's (a story's dev run: `dev.<story>`). */
  transcript?: string;
  /** The role's handoff schemas, built once per node (zod and its JSON schema cost about a millisecond a step). */
  handoff?: { schema: ReturnType<typeof roleHandoffSchema>; jsonSchema: Record<string, unknown> };
}

/** Runs one agent (persona + tools) to its handoff. */
export async function runRole(run: RoleRun, state: PipelineStateType, config: LangGraphRunnableConfig, deps: EngineDeps): Promise<AgentLoopResult> {
  const agent = deps.agents.get(run.agentId);
  if (!agent) throw new Error(`agent ${run.agentId} is not loaded`);
  const { config: cfg } = deps;
  const modelName = agent.model ?? cfg.model.name;
  const direct = state.mode === "run" ? {} : directTurn(state);
  const { middleware, messages, tools } = agentContext({ ...run, agent, modelName, state, mode: state.mode, ...direct }, deps, emitter(config));
  const dir = threadArtifactsDir(cfg.stateDir, threadIdOf(config));
  const runId = `${run.node}-${Date.now()}`;
  const emit = emitter(config);
  // A provider that refuses or fails is retried with backoff by the client; say so, or the run just looks stuck.
  const onRetry = (reason: string, count: { retry: number; of: number }) =>
    emit({ type: "warning", message: `${run.node}: the model call failed (${reason}); retry ${count.retry} of ${count.of}` });
  const model = deps.createModel({ name: modelName, temperature: agent.temperature ?? cfg.model.temperature, onRetry });
  const recordAll = (entries: Record<string, unknown>[]) =>
    appendTranscript(
      dir,
      run.transcript ?? run.node,
      entries.map((entry) => ({ run: runId, ...entry })),
    );
  const record = (entry: Record<string, unknown>) => recordAll([entry]);
  return runAgentLoop({
    node: run.node,
    model,
    messages,
    tools,
    handoff: run.handoff ?? { schema: roleHandoffSchema(run.role, run.flags), jsonSchema: roleHandoffJsonSchema(run.role, run.flags) },
    toolContext: {
      root: cfg.root,
      commandTimeoutS: cfg.limits.commandTimeoutS,
      outputCapBytes: cfg.limits.outputCapBytes,
      readCapBytes: cfg.limits.readCapBytes,
      env: deps.baseEnv,
      secretEnvNames: deps.secretEnvNames,
      signal: config.signal,
      stateDir: cfg.stateDir,
      commands: {
        envAllow: deps.commands?.envAllow ?? null,
        sandbox: deps.commands?.sandbox ?? { kind: "none" },
        allowExecFiles: deps.commands?.allowExecFiles ?? [],
        ...(deps.commands?.config ? { config: deps.commands.config } : {}),
        policy: policyForRole(cfg.commands?.policy ?? defaultPolicy(), cfg.commands?.roles ?? {}, run.agentId, run.role.kind),
      },
      log: (entry, message) => deps.logger.warn({ node: run.node, ...entry }, message),
      readTestCounts: parseTestOutput,
    },
    maxTurns: cfg.limits.maxTurnsOverride ?? agent.maxTurns ?? cfg.limits.maxTurns,
    maxToolCallsPerTurn: cfg.limits.toolCallsPerTurn ?? DEFAULT_TOOL_CALLS_PER_TURN,
    maxReminders: cfg.limits.handoffReminders,
    emit: emitter(config),
    record,
    recordAll,
    beforeCall: beforeEachCall(middleware, model, deps, record, emitter(config)),
    classifyError: (error) => deps.classifyError(error, modelName),
    ...(deps.noticeWords ? { noticeWords: deps.noticeWords } : {}),
    // A chat ends with its answer in plain text; an agent (and the pipeline) with its handoff.
    finishOnText: state.mode === "chat",
    signal: config.signal,
    aroundTool: toolHooks(
      deps.hooks,
      tools.map((t) => t.name),
      hookScope(config, deps, run.node),
    ),
  });
}

/**
 * The gate node the run goes back to when this step left the project different from the tree the latest passing gate
 * judged (said as a warning naming the files), or null.
 */
async function gateToRunAgain(node: string, state: PipelineStateType, update: PipelineUpdate, deps: EngineDeps, config: LangGraphRunnableConfig) {
  const judged = "judgedTree" in update ? (update.judgedTree as JudgedTree | null) : state.judgedTree;
  const blocked = (update.gateBlocked as boolean | undefined) ?? state.gateBlocked;
  // The judged tree holds the ignored files the agents wrote: the tree now is taken with them (and any new ones).
  const ignored =
    judged && !blocked ? await agentIgnoredNow(deps.config.root, ignoredRecordFile(deps.config.stateDir, threadIdOf(config)), ownPathTest(deps.config)) : null;
  const stale = await staleGate(deps.config.root, judged, blocked, ownFilesIn(deps.config), ignored?.ok ? ignored.paths : []);
  if (!stale) return null;
  const files = stale.files.length ? stale.files.join(", ") : "files";
  emitter(config)({
    type: "warning",
    message: `${node} changed ${files} after the gate judged the project: ${stale.node} runs the gate again on the changed files`,
  });
  return stale.node;
}

/** `agent` / `chat`: the latest message is the user input, the conversation before it the earlier turns. */
function directTurn(state: PipelineStateType): { userInput: string; earlierTurns: Turn[] } {
  const turns = state.conversation;
  const last = turns.map((t) => t.role).lastIndexOf("user");
  if (last < 0) return { userInput: state.requirement, earlierTurns: [] };
  return { userInput: turns[last].text, earlierTurns: turns.slice(0, last) };
}

/** The answer of an `agent` / `chat` thread, from its handoff: the summary, or what its role hands off. */
export function replyText(h: Record<string, unknown>): string {
  if (typeof h.summary === "string" && h.summary.trim()) return h.summary;
  if (typeof h.requirements === "string") return h.requirements;
  if (typeof h.verdict === "string") return [`Verdict: ${h.verdict}`, ...((h.findings as string[] | undefined) ?? []).map((f) => `- ${f}`)].join("\n");
  const { escalate_to_human: _e, question: _q, ...rest } = h;
  return JSON.stringify(rest, null, 2);
}

/**
 * An agent node of the workflow, playing the role record the graph resolved for it (workflow/node-roles.ts). With
 * `gates`, yolo first runs the gate commands and the agent judges them (the tea pattern): a red required gate or a
 * FAIL verdict blocks, whatever else the model says.
 */
export function agentNode(node: string, spec: AgentNodeSpec, role: RoleRecord, deps: EngineDeps) {
  const agentId = spec.agent ?? node;
  const flags = spec.sets ?? [];
  const handoff = { schema: roleHandoffSchema(role, flags), jsonSchema: roleHandoffJsonSchema(role, flags) };
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    checkVisits(node, state, spec.maxVisits);
    emitter(config)({ type: "node.started", node, fixAttempt: state.gateBlocked && !role.judgesGates ? state.fixAttempts : 0, step: state.steps ?? 0 });
    const subject = { node, agent: agentId, role: role.kind, mode: state.mode };
    await nodeStartHooks(
      deps.hooks,
      subject,
      { fixAttempt: state.gateBlocked && !role.judgesGates ? state.fixAttempts : 0, step: state.steps ?? 0 },
      hookScope(config, deps, node),
    );
    const check = role.judgesGates && spec.gates ? await runGateCheck(node, spec.gates, state, config, deps) : null;
    const gates = check?.results ?? null;
    const inputs = gates ? { ...state, lastGates: gates } : state;
    const out = await runRole({ node, agentId, role, flags, handoff }, inputs, config, deps);
    const h = out.handoff;
    if (h.escalate_to_human === true) {
      const update: PipelineUpdate = { escalateToHuman: true, question: String(h.question ?? ""), askedBy: node };
      // Files written before the question are real changes too.
      if (out.filesChanged.length) update.filesChanged = out.filesChanged;
      // No verdict before the answer, but what a human ruled in the check is the thread's, as with a verdict.
      if (check) Object.assign(update, { lastGates: check.results, ...humanWords(check) });
      await nodeEndHooks(
        deps.hooks,
        subject,
        { outcome: "escalated", summary: String(h.question ?? ""), filesChanged: out.filesChanged, usage: out.usage },
        hookScope(config, deps, node),
      );
      return finish(node, config, update, out.usage, "");
    }
    const { update, summary } = role.write(h, {
      node,
      state,
      gates,
      written: out.filesChanged,
      changed: role.writesCode && namesUnwritten(h.files_changed, out.filesChanged) ? await changedSoFar(deps) : null,
      root: deps.config.root,
      gateVerdict: (judge) => gateVerdict({ node, check, before: state, judge }),
    });
    update.staleGate = await gateToRunAgain(node, state, update, deps, config);
    const committed = await commitIteration({ node, role, state, summary: String(h.summary ?? ""), threadId: threadIdOf(config), deps });
    const setFlags = Object.fromEntries(flags.map((f) => [f, h[f] === true]));
    const withFlags: PipelineUpdate = flags.length ? { ...update, flags: setFlags } : { ...update };
    if (state.mode !== "run") {
      // The answer is the thread's reply to the user, and the conversation a follow-up continues.
      const text = replyText(h);
      emitter(config)({ type: "reply", node, text });
      withFlags.conversation = [{ role: "agent", text }];
    }
    await nodeEndHooks(deps.hooks, subject, { outcome: "handoff", summary, filesChanged: out.filesChanged, usage: out.usage }, hookScope(config, deps, node));
    const flagText = flags.length ? `; ${flags.map((f) => `${f}=${setFlags[f]}`).join(", ")}` : "";
    return finish(node, config, { escalateToHuman: false, question: null, ...withFlags }, out.usage, summary + committed + flagText);
  };
}

// Whether an agent's account of its change names a file its tools did not write: only then is git asked to confirm it.
function namesUnwritten(named: unknown, written: string[]): boolean {
  return Array.isArray(named) && named.some((f) => typeof f === "string" && !written.includes(f));
}

// What git says the thread changed so far, for checking an agent's account of its change; null when git cannot tell.
async function changedSoFar(deps: EngineDeps): Promise<ReadonlySet<string> | null> {
  const read = await deps.changes?.changedFiles();
  return read?.ok ? new Set(read.files) : null;
}
