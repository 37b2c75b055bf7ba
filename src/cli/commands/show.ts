import { currentRow, databaseExists, databaseName, loadStoredThread, openIndex } from "../../engine/api-light.js";
import { killedReason } from "../wording/run-words.js";
import type { PipelineStateType } from "../../state/pipeline.js";
import { fixAttemptsMade } from "../../state/fix-attempts.js";
import { ConfigError } from "../../errors.js";
import { threadPatch } from "../../git/thread-change.js";
import type { ThreadRow } from "../../store/thread-store.js";
import { loadResolvedConfig } from "../load-config.js";
import { locateArtifact, noDatabaseYet } from "../thread-home.js";
import { plural } from "../../text/plural.js";
import { judgementNotes, readingWords } from "../../events/judgement-words.js";
import { outputSections } from "../../roles/displays.js";
import { orderedStoryRuns, storyCounts, storyTextLines } from "../../report/stories.js";
import { preExistingCount, scopeWords } from "../../ui/format.js";
import { escapeControls, escapeControlsInJson } from "../../text/control-chars.js";
import { readInstructions } from "../../prompt/instructions.js";

/** `yolo show <thread>`: what a thread produced, read from its checkpoints. */
export async function showCommand(input: { cwd: string; thread: string; json: boolean; diff?: boolean }): Promise<number> {
  const config = await loadResolvedConfig(input.cwd);
  if (!databaseExists(config)) throw noDatabaseYet(input.thread, databaseName(config));
  const session = await openIndex(config);
  try {
    const stored = await session.threads.get(input.thread);
    const row = stored && (await currentRow(session, stored, killedReason));
    const reader = await loadStoredThread();
    const { values, position } = await reader.readThreadState(config, session, input.thread);
    if (input.diff) {
      // The patch is the model's files: escaped on a terminal, byte for byte into a pipe (`git apply` takes it).
      const diff = await diffText(config.root, row);
      process.stdout.write(process.stdout.isTTY ? escapeControls(diff) : diff);
      return 0;
    }
    // Model-written text (findings, summaries, decisions) never reaches the terminal with its control characters.
    if (input.json) {
      process.stdout.write(`${escapeControlsInJson(JSON.stringify({ thread: row, position: position.kind, state: values }, null, 2))}\n`);
    } else {
      process.stdout.write(
        escapeControls(
          render(
            input.thread,
            row,
            values,
            position.kind === "waiting" ? position.question : null,
            config.root,
            position.kind === "waiting" && position.request.kind === "approval",
            position.kind === "answered" ? `${reader.answerWords(position.answer)} (${position.askedBy})` : null,
          ),
        ),
      );
      process.stdout.write(instructionsLine(config));
    }
    return 0;
  } finally {
    await session.close();
  }
}

/** The project instruction files the agents are given (as the project holds them now); "" when there are none. */
function instructionsLine(config: { root: string; startDir?: string; instructionFiles: readonly string[] }): string {
  const read = readInstructions({ root: config.root, names: config.instructionFiles, ...(config.startDir ? { startDir: config.startDir } : {}) });
  const refused = read.refused.map((r) => `${r.file} (not read: ${r.reason})`);
  const cut = new Map(read.cut.map((c) => [c.file, c]));
  const given = read.files.map((f) => (cut.has(f) ? `${f} (cut: ${cut.get(f)?.shownBytes} of ${cut.get(f)?.bytes} bytes)` : f));
  const left = read.cut.filter((c) => !c.shownBytes).map((c) => `${c.file} (left out by the 32 KiB cap)`);
  const all = [...given, ...left, ...refused];
  // File names are the project's (a model may have made them): printed with their control characters escaped.
  return all.length ? escapeControls(`\nProject instructions given to every agent: ${all.join(", ")}\n`) : "";
}

/** `--diff`: the change since the thread's start commit, as `git diff --stat --patch` shows it (new files included). */
async function diffText(root: string, row: ThreadRow | null): Promise<string> {
  const change = await threadPatch({ root, startCommit: row?.startCommit ?? null, branch: row?.branch ?? null });
  if (!change.ok) throw new ConfigError(`Cannot show the diff of thread ${row?.id ?? ""}: ${change.note}.`);
  return change.value || "No changes since the start commit.\n";
}

// The thread as text: its status and what it was asked, then a section per kind of record it kept.
function render(
  id: string,
  row: ThreadRow | null,
  s: PipelineStateType,
  waitingOn: string | null,
  root: string,
  review = false,
  answered: string | null = null,
): string {
  const out: string[] = [];
  // `baseline: "report"`: a run that passed with tests red before it still red is never a bare "passed".
  const pre = row?.status === "passed" ? preExistingCount(row.reason ?? undefined) : 0;
  const status = pre ? `passed with ${plural(pre, "pre-existing failure")}` : (row?.status ?? "unknown");
  out.push(`Thread ${id} — ${status}${row?.reason ? `: ${row.reason}` : ""}`);
  if (s.mode === "agent" || s.mode === "chat") {
    out.push(`Mode: ${s.mode}${s.agentId ? ` (agent ${s.agentId})` : ""} — continue it with: yolo resume ${id} "…"`);
    section(
      out,
      "Conversation",
      s.conversation.map(
        (t) =>
          `${t.role === "user" ? "> " : ""}${t.text
            .trim()
            .split("\n")
            .join(t.role === "user" ? "\n> " : "\n")}`,
      ),
    );
  } else out.push(`Requirement: ${s.requirement}`);
  if (row?.host) out.push(`Last run: ${row.user ?? "?"}@${row.host} in ${row.root}`);
  if (waitingOn)
    out.push(
      `Waiting for ${review ? "a review" : "an answer"}: ${waitingOn}\n  Answer with: yolo resume ${id} ${review ? '--approve | --reject "<why>"' : '--answer "…"'}`,
    );
  // A killed resume saved this answer; the next resume hands it to the node that asked.
  if (answered) out.push(`Answered, not yet taken: ${answered}. Continue with: yolo resume ${id}`);
  // What the roles produced, each as its module in src/roles says (user roles' values with the custom agents' notes).
  const roles = outputSections(s);
  for (const r of roles.work) section(out, r.title, r.text);
  const storyRuns = orderedStoryRuns(s.storyRuns, s.stories);
  if (storyRuns.length)
    section(
      out,
      `Stories in parallel (${storyCounts(storyRuns)})`,
      storyRuns.flatMap((run) => storyTextLines(run)),
    );
  section(
    out,
    "Switch decisions",
    s.switchDecisions.map(
      (d) => `- ${d.node}: case ${d.taken} → ${d.to}${d.fallback ? ` (fallback: ${d.fallback})` : ""}; the model answered ${d.raw || "nothing"}`,
    ),
  );
  section(
    out,
    "Human reviews",
    s.reviews.map((r) => `- ${r.by}${r.node ? ` on ${r.node}` : ""}: ${r.action}${r.reason ? ` — ${r.reason}` : ""}`),
  );
  section(
    out,
    "Failing tests dev said are unrelated, ruled on by a human",
    (s.failureRulings ?? []).map(
      (r) => `- ${r.id} (gate ${r.gate}): ${r.accepted ? "accepted as a known failure" : `refused${r.reason ? ` — ${r.reason}` : ""}`} at ${r.by}`,
    ),
  );
  section(out, "Gate baseline", baselineLines(s));
  section(out, "Gate results", s.gateHistory.map(gateHistoryLine));
  const away = s.gateHistory.map((g) => (g.logFile ? locateArtifact(root, g.logFile, row) : null)).find((f) => f && "missing" in f);
  if (away && "missing" in away) out.push(`  Gate logs: ${away.missing.replace(/^\S+ is/, "some are")}`);
  for (const r of roles.judgement) section(out, r.title, r.text);
  if (fixAttemptsMade(s)) out.push("", `Fix attempts: ${fixAttemptsMade(s)}`);
  section(out, "Token usage", usageLines(s));
  return `${out.join("\n")}\n`;
}

// One gate run of the thread: its outcome, whether it blocked, its counts, scope and log, then the judgement's notes.
function gateHistoryLine(g: PipelineStateType["gateHistory"][number]): string {
  return (
    `- attempt ${g.attempt} ${g.name} (${g.command}): ${g.passed ? "passed" : g.timedOut ? "timed out" : `failed, exit ${g.exitCode}`}` +
    (g.blocking === true ? " — blocked" : g.blocking === false && !g.passed ? " — not blocking" : "") +
    (g.passedCount !== null || g.failedCount !== null ? ` — ${g.passedCount ?? "?"} passed, ${g.failedCount ?? "?"} failed` : "") +
    (g.scope ? ` — ${scopeWords(g.scope)}` : "") +
    (g.reading ? ` — ${readingWords(g.reading)}` : "") +
    (g.logFile ? ` — log ${g.logFile}` : "") +
    judgementNotes(g, 10)
      .map((n) => `\n  ${n}`)
      .join("")
  );
}

// The thread's tokens in total (with the cached share), then per agent.
function usageLines(s: PipelineStateType): string[] {
  const cached = s.usage.cachedTokens ? ` (${s.usage.cachedTokens} of them cached)` : "";
  const usage = [
    `total: ${s.usage.estimated ? "~" : ""}${s.usage.totalTokens} tokens (${s.usage.promptTokens} prompt${cached}, ${s.usage.completionTokens} completion) in ${plural(s.usage.calls, "call")}`,
  ];
  for (const [node, u] of Object.entries(s.usageByNode)) usage.push(`${node}: ${u.totalTokens} tokens in ${plural(u.calls, "call")}`);
  return usage;
}

/** The baseline taken before any agent changed a file: each gate's result, or why the thread has no gate. */
function baselineLines(s: PipelineStateType): string[] {
  const b = s.gateBaseline;
  if (!b) return [];
  if (b.noGate) return [`- no gate: ${b.noGate}; the run completes without a gate`];
  return b.gates.map(
    (g) =>
      `- ${g.name}: ${g.passed ? "passed" : "failed"}` +
      (g.tests !== null
        ? ` — ${plural(g.tests, "test")} recorded one by one`
        : g.passedCount !== null || g.failedCount !== null
          ? ` — ${g.passedCount ?? "?"} passed, ${g.failedCount ?? "?"} failed (counts only)`
          : "") +
      (g.reading ? ` — ${readingWords(g.reading)}` : "") +
      (s.gateApproval ? `\n  gate change approved by a human: ${s.gateApproval.changes.join("; ")}` : ""),
  );
}

function section(out: string[], title: string, lines: string[]): void {
  if (!lines.length) return;
  out.push("", `${title}:`, ...lines);
}
