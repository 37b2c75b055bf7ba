import type { Awaits, ResumeFact } from "../../events/facts.js";
import { exitCodeFor, type LimitKind, type RunStatus } from "../../events/outcome.js";
import type { EventBody } from "../../events/schema.js";
import { ZERO_USAGE } from "../../events/usage.js";
import { runEndHooks } from "../../hooks/step-hooks.js";
import { plural } from "../../text/plural.js";
import { DEFAULT_JUDGE } from "../../roles/catalog.js";
import { fixAttemptsMade } from "../../state/fix-attempts.js";
import type { PipelineStateType } from "../../state/pipeline.js";
import { NO_NEW_FINDINGS } from "../../gates/judge-findings.js";
import { endVerdict } from "../../gates/verdict.js";
import { modeOf } from "../thread-input.js";
import type { ThreadPosition } from "../position.js";
import type { EngineDeps } from "../deps.js";
import type { Session } from "../session.js";
import { completedEvent } from "./completed.js";
import type { RunOptions, RunResult } from "./options.js";

// Light (no LangGraph): how a leg ends, for the engine's run and for a resume that says where it stands before loading it.
/** The outcome of a finished thread, from its state alone (the fix attempts it made, not the resuming command's limit). */
export function finalOutcome(values: PipelineStateType): { status: RunStatus; reason: string } {
  const mode = modeOf(values);
  if (mode !== "run") {
    // An agent or chat thread has no gate: it succeeded when its agent answered (exit 0).
    const answer = values.conversation.at(-1);
    const first = answer?.role === "agent" ? answer.text.trim().split("\n")[0] : "";
    return {
      status: "passed",
      reason: `completed: ${values.agentId ?? mode} answered${first ? `: ${first.length > 100 ? `${first.slice(0, 99)}…` : first}` : ""}`,
    };
  }
  const lastReview = values.reviews.at(-1);
  if (lastReview?.action === "reject" && lastReview.node === null) {
    return { status: "failed", reason: `rejected at ${lastReview.by}: ${lastReview.reason ?? "no reason given"}` };
  }
  const verdict = endVerdict(values);
  if (verdict.passed) {
    // Never "gate passed" without a gate: the words say the change was not checked by tests.
    if (!values.lastGates.length)
      return {
        status: "passed",
        reason: `completed without a gate${values.gateBaseline?.noGate ? ` (${values.gateBaseline.noGate})` : ""}, verdict ${values.verdict ?? "none"}`,
      };
    const gates = `${values.lastGates.filter((g) => g.passed).length}/${values.lastGates.length} gates passed`;
    return { status: "passed", reason: `completed: ${gates}${passedNotes(values.lastGates)}, verdict ${values.verdict ?? "none"}` };
  }
  const red = verdict.blocking;
  const attempts = plural(fixAttemptsMade(values), "fix attempt");
  if (verdict.onlyTargets) {
    // Nothing the change broke: the tests that defined the task still fail, and the words say exactly that.
    return { status: "failed", reason: `gate ${red.map((g) => g.name).join(", ")} ${targetWords(red)}; nothing the change broke (after ${attempts})` };
  }
  const why = red.length
    ? `gate ${red.map((g) => g.name).join(", ")} still ${blockingWords(values.lastGates)}`
    : `${values.verdictBy ?? DEFAULT_JUDGE} verdict ${values.verdict}`;
  const targets = red.some((g) => g.preExisting?.length && !g.preExistingAllowed) ? `; also ${targetWords(red)}` : "";
  return { status: "failed", reason: `${why} after ${attempts}${targets}` };
}

const some = (ids: string[]) => `${ids.slice(0, 3).join("; ")}${ids.length > 3 ? "; …" : ""}`;

/** "still failing: 2 tests that were failing before the run (a; b)". */
function targetWords(gates: PipelineStateType["lastGates"]): string {
  const ids = gates.filter((g) => !g.preExistingAllowed).flatMap((g) => g.preExisting ?? []);
  return `still failing: ${ids.length === 1 ? "1 test that was" : `${ids.length} tests that were`} failing before the run (${some(ids)})`;
}

/**
 * What a passing run's gates say since the baseline: ` (fixed: …)`, ` (1 known failure: …, declared in …)` and,
 * under `baseline: "report"`, ` (1 pre-existing failure: …)` (failures the baseline had, which did not block).
 */
function passedNotes(gates: PipelineStateType["lastGates"]): string {
  const fixed = gates.flatMap((g) => g.fixed ?? []);
  const known = gates.flatMap((g) => g.knownFailures ?? []);
  const pre = gates.filter((g) => g.preExistingAllowed).flatMap((g) => g.preExisting ?? []);
  // A lint red before the run and no worse now: said, so "1/2 gates passed" is not read as the change's fault.
  const lint = gates.filter((g) => !g.passed && g.findings?.includes(NO_NEW_FINDINGS)).map((g) => g.name);
  const notes = [
    fixed.length ? ` (fixed: ${some(fixed)})` : "",
    known.length ? ` (${plural(known.length, "known failure")}: ${some(known.map((k) => `${k.id}, declared in ${k.declaredIn}`))})` : "",
    pre.length ? ` (${plural(pre.length, "pre-existing failure")}: ${some(pre)})` : "",
    lint.length ? ` (${lint.join(", ")}: ${NO_NEW_FINDINGS})` : "",
  ];
  return notes.join("");
}

const CHANGED_BY = { configuration: "the gate's configuration", agent: "an agent", both: "the gate's configuration and an agent" } as const;

/** What still blocks, in words: a refused gate change, regressions, or plain failures. */
function blockingWords(gates: PipelineStateType["lastGates"]): string {
  const refused = gates.find((g) => g.gateChange?.length && !g.gateChangeApproved);
  const change = refused?.gateChange;
  if (change)
    return `changed by ${CHANGED_BY[refused?.gateChangeBy ?? "agent"]}, refused (${change[0]}${change.length > 1 ? `; ${change.length - 1} more` : ""})`;
  const regressions = gates.flatMap((g) => g.regressions ?? []);
  if (regressions.length) return `regressed (${regressions.slice(0, 3).join("; ")}${regressions.length > 3 ? "; …" : ""})`;
  return "failing";
}

const RESUMABLE: ReadonlySet<RunStatus> = new Set(["waiting", "limit", "provider_error", "interrupted", "error"]);

/**
 * How to continue a thread that ended with `status`, as a fact; null when there is nothing to continue: it ended for
 * good, or it has no checkpoint yet (a resume would refuse it: it is started again instead).
 */
export function resumeFact(threadId: string, status: RunStatus, position: ThreadPosition): ResumeFact | null {
  if (!RESUMABLE.has(status) || position.kind === "new") return null;
  const awaits: Awaits = status === "waiting" && position.kind === "waiting" ? position.request.kind : null;
  return { thread: threadId, awaits };
}

/** Ends a leg: the interrupt (when waiting), the thread row, the end hooks and `run.completed`; returns the result. */
export async function complete(
  options: Pick<RunOptions, "threadId" | "words" | "start"> & { deps: Pick<EngineDeps, "hooks" | "changes">; session: Pick<Session, "threads"> },
  emit: (e: EventBody) => void,
  status: RunStatus,
  reason: string,
  position: ThreadPosition,
  limit: LimitKind | null = null,
): Promise<RunResult> {
  const { threadId, session } = options;
  const exitCode = exitCodeFor(status, limit);
  const resume = resumeFact(threadId, status, position);
  const resumeCommand = resume ? options.words.resumeCommand(resume) : null;
  const question = position.kind === "waiting" ? position.question : null;
  const values = position.kind === "new" ? null : position.values;
  const filesChanged = values ? await filesChangedSoFar(options.deps, values.filesChanged) : [];
  if (position.kind === "waiting") {
    const request = position.request;
    emit({
      type: "interrupt",
      node: position.node,
      askedBy: position.askedBy,
      question: position.question,
      resumeCommand: resumeCommand ?? "",
      kind: request.kind,
      artifact: request.kind === "approval" ? request.artifact : null,
    });
  }
  try {
    if (await session.threads.get(threadId)) await session.threads.update(threadId, { status, exitCode, reason });
  } catch {
    // A full or read-only disk: the outcome still reaches the caller; the index is brought up to date on resume.
  }
  await runEndHooks(
    options.deps.hooks,
    {
      status,
      exitCode,
      reason,
      mode: values ? modeOf(values) : (options.start?.profile?.mode ?? "run"),
      filesChanged,
      usage: values?.usage ?? ZERO_USAGE,
      resumeCommand,
    },
    { emit, threadId: threadId },
  );
  const accepted = (values?.failureRulings ?? []).filter((r) => r.accepted).map(({ id, gate, by }) => ({ id, gate, by }));
  emit(
    completedEvent({
      status,
      limit,
      exitCode,
      reason,
      usage: values?.usage ?? ZERO_USAGE,
      filesChanged,
      resumeCommand,
      ...(accepted.length ? { acceptedFailures: accepted } : {}),
    }),
  );
  const request = position.kind === "waiting" ? position.request : null;
  return { threadId, status, limit: status === "limit" ? limit : null, exitCode, reason, question, request, resume, resumeCommand };
}

/**
 * The files the thread changed so far, from git (its start against the work tree), never from an agent's account: a
 * model can name a file it never wrote, and a leg killed after writing leaves no handoff. Where git cannot tell (no
 * repository, no engine loaded yet), the checkpointed list: the files the tools wrote and the agent named.
 */
async function filesChangedSoFar(deps: Pick<EngineDeps, "changes">, recorded: string[]): Promise<string[]> {
  const read = await deps.changes?.changedFiles();
  return read?.ok ? read.files : recorded;
}
