import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runAgentLoop, type AgentLoopResult } from "../../agents/runner.js";
import { appendTranscript } from "../../store/artifacts.js";
import { threadArtifactsDir } from "../../store/state-dir.js";
import { plural } from "../../text/plural.js";
import { defaultPolicy, policyForRole } from "../../tools/command-policy.js";
import { handoffJsonSchema, handoffSchema, roleFor, type AnyRole } from "../../tools/handoff.js";
import type { AgentNodeSpec } from "../../workflow/schema.js";
import type { EngineDeps } from "../deps.js";
import type { Decision, PipelineStateType, PipelineUpdate, Story, Turn, Verdict } from "../state.js";
import { agentContext, beforeEachCall } from "./agent-context.js";
import { commitIteration } from "./commit-step.js";
import { checkVisits, emitter, finish, hookScope, threadIdOf } from "./context.js";
import { nodeEndHooks, nodeStartHooks } from "../../hooks/step-hooks.js";
import { toolHooks } from "../../hooks/tool-hooks.js";
import { gateDecision, redGate, runGateCheck } from "./gate-check.js";

interface RoleRun {
  node: string;
  agentId: string;
  role: AnyRole;
  flags: string[];
  /** The role's handoff schemas, built once per node (zod and its JSON schema cost about a millisecond a step). */
  handoff?: { schema: ReturnType<typeof handoffSchema>; jsonSchema: Record<string, unknown> };
}

/** Runs one agent (persona + tools) to its handoff. */
async function runRole(run: RoleRun, state: PipelineStateType, config: LangGraphRunnableConfig, deps: EngineDeps): Promise<AgentLoopResult> {
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
  const record = (entry: Record<string, unknown>) => appendTranscript(dir, run.node, { run: runId, ...entry });
  return runAgentLoop({
    node: run.node,
    model,
    messages,
    tools,
    handoff: run.handoff ?? { schema: handoffSchema(run.role, run.flags), jsonSchema: handoffJsonSchema(run.role, run.flags) },
    toolContext: {
      root: cfg.root,
      commandTimeoutS: cfg.limits.commandTimeoutS,
      outputCapBytes: cfg.limits.outputCapBytes,
      readCapBytes: cfg.limits.readCapBytes,
      env: deps.baseEnv,
      secretEnvNames: deps.secretEnvNames,
      signal: config.signal,
      commands: {
        envAllow: deps.commands?.envAllow ?? null,
        sandbox: deps.commands?.sandbox ?? { kind: "none" },
        allowExecFiles: deps.commands?.allowExecFiles ?? [],
        policy: policyForRole(cfg.commands?.policy ?? defaultPolicy(), cfg.commands?.roles ?? {}, run.agentId, run.role),
      },
      log: (entry, message) => deps.logger.warn({ node: run.node, ...entry }, message),
    },
    maxTurns: cfg.limits.maxTurnsOverride ?? agent.maxTurns ?? cfg.limits.maxTurns,
    maxReminders: cfg.limits.handoffReminders,
    emit: emitter(config),
    record,
    beforeCall: beforeEachCall(middleware, model, deps, record, emitter(config)),
    classifyError: (error) => deps.classifyError(error, modelName),
    // A chat ends with its answer in plain text; an agent (and the pipeline) with its handoff.
    finishOnText: state.mode === "chat",
    signal: config.signal,
    aroundTool: toolHooks(deps.hooks, tools.map((t) => t.name), hookScope(config, deps, run.node)),
  });
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
 * An agent node of the workflow. With `gates`, yolo first runs the gate commands and the agent judges them
 * (the tea pattern): a red required gate or a FAIL verdict blocks, whatever else the model says.
 */
export function agentNode(node: string, spec: AgentNodeSpec, deps: EngineDeps) {
  const agentId = spec.agent ?? node;
  const role = roleFor(agentId, spec.gates !== undefined && spec.gates !== false);
  const flags = spec.sets ?? [];
  const handoff = { schema: handoffSchema(role, flags), jsonSchema: handoffJsonSchema(role, flags) };
  return async (state: PipelineStateType, config: LangGraphRunnableConfig): Promise<PipelineUpdate> => {
    checkVisits(node, state, spec.maxVisits);
    emitter(config)({ type: "node.started", node, fixAttempt: state.gateBlocked && role !== "tea" ? state.fixAttempts : 0, step: state.steps ?? 0 });
    const subject = { node, agent: agentId, role, mode: state.mode };
    await nodeStartHooks(deps.hooks, subject, { fixAttempt: state.gateBlocked && role !== "tea" ? state.fixAttempts : 0, step: state.steps ?? 0 }, hookScope(config, deps, node));
    const gates = role === "tea" && spec.gates ? await runGateCheck(node, spec.gates, state, config, deps) : null;
    const inputs = gates ? { ...state, lastGates: gates } : state;
    const out = await runRole({ node, agentId, role, flags, handoff }, inputs, config, deps);
    const h = out.handoff;
    if (h.escalate_to_human === true) {
      const update: PipelineUpdate = { escalateToHuman: true, question: String(h.question ?? ""), askedBy: node };
      // Files written before the question are real changes too.
      if (out.filesChanged.length) update.filesChanged = out.filesChanged;
      if (gates) update.lastGates = gates;
      await nodeEndHooks(deps.hooks, subject, { outcome: "escalated", summary: String(h.question ?? ""), filesChanged: out.filesChanged, usage: out.usage }, hookScope(config, deps, node));
      return finish(node, config, update, out.usage, "");
    }
    const { update, summary } = outputs(role, node, h, state, gates, out, deps.config.root);
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

/** What each role's handoff changes in the state, and a one-line summary of it. */
function outputs(
  role: AnyRole,
  node: string,
  h: Record<string, unknown>,
  state: PipelineStateType,
  gates: PipelineStateType["lastGates"] | null,
  out: AgentLoopResult,
  root: string,
): { update: PipelineUpdate; summary: string } {
  switch (role) {
    case "analyst": {
      const criteria = h.acceptance_criteria as string[];
      return { update: { requirements: String(h.requirements), acceptanceCriteria: criteria }, summary: plural(criteria.length, "acceptance criterion", "acceptance criteria") };
    }
    case "pm": {
      const stories = h.stories as Story[];
      return {
        update: { stories, needsArchitecture: h.needs_architecture === true },
        summary: `${plural(stories.length, "story", "stories")}, architecture ${h.needs_architecture ? "needed" : "not needed"}`,
      };
    }
    case "architect": {
      const decisions = h.decisions as Decision[];
      return { update: { decisions }, summary: plural(decisions.length, "decision") };
    }
    case "dev": {
      const files = changedFiles(root, h.files_changed, out.filesChanged);
      return { update: { devSummary: String(h.summary), filesChanged: files }, summary: `${plural(files.length, "file")} changed` };
    }
    case "tea": {
      const verdict = h.verdict as Verdict;
      const findings = (h.findings as string[]) ?? [];
      const results = gates ?? state.lastGates;
      const gateText = results.length ? `gates ${results.filter((g) => g.passed).length}/${results.length} passed` : "no gates";
      if (gates) {
        const blocked = redGate(gates) || verdict === "FAIL";
        return { update: { verdict, findings, ...gateDecision(state, gates, blocked) }, summary: `verdict ${verdict}, ${gateText}${blocked ? " — blocked" : ""}` };
      }
      // Judging the results of a gate node that ran before: it already counted a red gate as a fix attempt.
      const failsGreen = verdict === "FAIL" && !state.gateBlocked;
      const blocked = state.gateBlocked || verdict === "FAIL";
      return {
        update: { verdict, findings, gateBlocked: blocked, fixAttempts: failsGreen ? state.fixAttempts + 1 : state.fixAttempts },
        summary: `verdict ${verdict}, ${gateText}${blocked ? " — blocked" : ""}`,
      };
    }
    case "custom": {
      const note = { summary: String(h.summary), findings: (h.findings as string[] | undefined) ?? [], verdict: null };
      const files = out.filesChanged.length ? { filesChanged: out.filesChanged } : {};
      return { update: { notes: { [node]: note }, ...files }, summary: note.findings.length ? plural(note.findings.length, "finding") : "done" };
    }
  }
}

/** Files the agent said it changed that exist, plus the ones its tools really wrote. */
export function changedFiles(root: string, declared: unknown, written: string[]): string[] {
  const named = Array.isArray(declared) ? declared.filter((f): f is string => typeof f === "string") : [];
  return [...new Set([...written, ...named.filter((f) => !f.startsWith("/") && !f.includes("..") && existsSync(join(root, f)))])];
}
