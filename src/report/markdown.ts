import type { ResumeFact } from "../events/facts.js";
import { limitKindForExitCode, limitLabel } from "../events/outcome.js";
import { CHANGE_WORDS, ENVIRONMENT_WORDS, gateBlocks, judgementNotes, READING_WORDS } from "../events/judgement-words.js";
import { plural } from "../text/plural.js";
import type { StoryRun } from "../state/story-runs.js";
import type { ReportData, ReportGate } from "./data.js";
import { storyCounts } from "./stories.js";
import type { OutputSection } from "../roles/types.js";
import { inlineMarkdown as inline } from "../text/markdown.js";

const MARK: Record<string, string> = { passed: "✅", failed: "❌", waiting: "❓", running: "⏳" };

/**
 * A thread as Markdown for a CI job summary or a pull-request comment: outcome, requirement, stories,
 * decisions, changed files with a diffstat, gate results, tokens (and cost, when a price is configured).
 * `resumeCommand` words how to continue a waiting thread (the CLI's command); without it only the question is shown.
 */
export function renderMarkdown(r: ReportData, resumeCommand?: (fact: ResumeFact) => string): string {
  const out: string[] = [];
  // The headline is the run's real outcome: `baseline: "report"` runs never read a bare "passed".
  const pre = r.status === "passed" ? preExistingIn(r.reason) : 0;
  const headline = pre ? `⚠️ yolo passed with ${plural(pre, "pre-existing failure")}` : `${MARK[r.status] ?? "⚠️"} yolo ${r.status}`;
  out.push(`## ${headline} — thread \`${r.thread}\``, "");
  out.push(...quote(r.requirement), "");
  const limit = r.status === "limit" ? limitKindForExitCode(r.exitCode) : null;
  const facts: [string, string][] = [
    [
      "Outcome",
      `**${r.status}**${limit ? ` — ${limitLabel(limit)}` : ""}${r.exitCode !== null ? ` (exit ${r.exitCode})` : ""}${r.reason ? `: ${inline(r.reason)}` : ""}`,
    ],
  ];
  if (r.model) facts.push(["Model", `\`${inline(r.model)}\``]);
  if (r.branch) facts.push(["Branch", `\`${r.branch}\`${r.startCommit ? ` from \`${r.startCommit.slice(0, 12)}\`` : ""}`]);
  else if (r.startCommit) facts.push(["Started from", `\`${r.startCommit.slice(0, 12)}\``]);
  if (r.fixAttempts) facts.push(["Fix attempts", String(r.fixAttempts)]);
  if (r.updatedAt) facts.push(["Updated", r.updatedAt]);
  out.push("| | |", "|---|---|", ...facts.map(([k, v]) => `| ${k} | ${v} |`));
  if (r.waitingOn?.answered !== undefined) {
    const { question, answered } = r.waitingOn;
    out.push("", `**Answered, not yet taken:** ${inline(question)} — ${inline(answered)}`);
    if (resumeCommand) out.push("", "```sh", resumeCommand({ thread: r.thread, awaits: null }), "```");
  } else if (r.waitingOn) {
    const { question, review } = r.waitingOn;
    out.push("", `**Waiting for ${review ? "a review" : "an answer"}:** ${inline(question)}`);
    if (resumeCommand) out.push("", "```sh", resumeCommand({ thread: r.thread, awaits: review ? "approval" : "question" }), "```");
  }

  out.push(...sections(r.outputs.work));
  if (r.storyRuns?.length) out.push("", "### Stories in parallel", ...storyRunRows(r.storyRuns));
  out.push("", "### Changed files", ...changedFiles(r));
  out.push("", "### Gates", ...baselineLines(r), ...gates(r.gates), ...testLines(r), ...acceptedLines(r));
  out.push(...sections(r.outputs.judgement));
  out.push("", "### Usage", ...usage(r));
  return `${out.join("\n")}\n`;
}

/** The roles' sections that belong in the report: each heading and its lines, worded by the role (src/roles/). */
function sections(list: OutputSection[]): string[] {
  return list.flatMap((s) => (s.markdown ? ["", s.markdown.heading, ...s.markdown.lines] : []));
}

const STORY_MARK: Record<string, string> = {
  merged: "✅ merged",
  done: "☑️ done, not merged",
  running: "⏳ running",
  pending: "⏸ pending",
  failed: "❌ failed",
};
// File names shown in a story's row; the rest are counted.
const STORY_FILES_SHOWN = 5;

/** Each story run: state, files (from git), usage, merge conflicts; then why each failed story failed. */
function storyRunRows(runs: StoryRun[]): string[] {
  const rows = runs.map((s) => {
    const files = s.filesChanged ?? [];
    const shown =
      files.slice(0, STORY_FILES_SHOWN).map(code).join(", ") + (files.length > STORY_FILES_SHOWN ? `, … (+${files.length - STORY_FILES_SHOWN} more)` : "");
    const conflicts = s.conflicts?.length ? s.conflicts.map(code).join(", ") : "";
    const u = s.usage;
    return `| ${code(s.id)} | ${cell(s.title ?? "")} | ${STORY_MARK[s.status] ?? cell(String(s.status))} | ${shown || "none"} | ${u ? u.calls : 0} | ${count(u?.totalTokens ?? 0)} | ${conflicts} |`;
  });
  const out = [
    `${storyCounts(runs)}.`,
    "",
    "| story | title | state | files changed | calls | tokens | merge conflicts |",
    "|---|---|---|---|---:|---:|---|",
    ...rows,
  ];
  for (const s of runs.filter((x) => x.status === "failed" && x.summary)) out.push("", `${code(s.id)} failed: ${inline(s.summary ?? "")}`);
  return out;
}

// Model-written names in a code span inside a table cell: a backtick would end the span early.
function code(text: string): string {
  return `\`${cell(text).replace(/`/g, "'")}\``;
}

function changedFiles(r: ReportData): string[] {
  if (r.diffstat?.length) {
    const rows = r.diffstat.map((f) => `| \`${cell(f.path)}\` | ${f.added ?? "bin"} | ${f.removed ?? "bin"} |`);
    const added = r.diffstat.reduce((n, f) => n + (f.added ?? 0), 0);
    const removed = r.diffstat.reduce((n, f) => n + (f.removed ?? 0), 0);
    const note = r.startCommit
      ? `Against the start commit \`${r.startCommit.slice(0, 12)}\`.`
      : "Against an empty repository (the thread started before the first commit).";
    return ["| file | + | − |", "|---|---:|---:|", ...rows, `| **${plural(r.diffstat.length, "file")}** | **+${added}** | **−${removed}** |`, "", note];
  }
  if (r.diffstat) return ["No changes since the start commit."];
  const lines = r.filesChanged.length ? r.filesChanged.map((f) => `- \`${inline(f)}\``) : ["None reported."];
  return r.diffNote ? [...lines, "", `_No diffstat: ${inline(r.diffNote)}_`] : lines;
}

function gates(list: ReportGate[]): string[] {
  if (!list.length) return ["No gate has run."];
  const rows = list.map((g) => {
    const counts = g.passedCount !== null || g.failedCount !== null ? `${g.passedCount ?? "?"} passed, ${g.failedCount ?? "?"} failed` : "";
    // How the results were read: a verdict on the exit code alone says so.
    const tests = [counts, g.reading ? READING_WORDS[g.reading] : ""].filter(Boolean).join(" · ");
    const kind = g.required ? "" : " (optional)";
    return `| ${g.attempt} | ${cell(g.name)}${kind} | \`${cell(g.command)}\` | ${resultCell(g)} | ${tests} | ${cell(changesCell(g))} | ${seconds(g.durationMs)} |`;
  });
  const out = ["| attempt | gate | command | result | tests | since the baseline | time |", "|---:|---|---|---|---|---|---:|", ...rows];
  const failing = list.filter((g) => !g.passed && g.failures.length && !judgementNotes(g).length);
  for (const g of failing.slice(-3)) out.push("", `Failing in ${inline(g.name)}, attempt ${g.attempt}: ${g.failures.map(inline).join("; ")}`);
  // What yolo's comparison with the baseline found in the latest run of each gate: regressions, pre-existing, gate changes.
  const latest = [...new Map(list.map((g) => [g.name, g])).values()];
  for (const g of latest) {
    const notes = judgementNotes(g, 10);
    if (notes.length) out.push("", `**${inline(g.name)}**, attempt ${g.attempt}, against the baseline:`, ...notes.map((n) => `- ${inline(n)}`));
  }
  return out;
}

/** An attempt's result as yolo judged it, and whether its environment, not the code, failed it. */
function resultCell(g: ReportGate): string {
  const cause = g.environment ? ` — the environment's failure: ${ENVIRONMENT_WORDS[g.environment.kind]}` : "";
  return `${judgedCell(g)}${cause}`;
}

/** An attempt's result as yolo judged it: a blocking attempt reads blocked, never "passed". */
function judgedCell(g: ReportGate): string {
  const exit = g.timedOut ? "timed out" : `exit ${g.exitCode ?? "none"}`;
  if (g.baseline) return g.passed ? "✅ passed (baseline)" : `❌ failed (baseline, ${exit})`;
  if (gateBlocks(g))
    return g.passed ? "⛔ blocked (exit 0, judged against the baseline)" : g.timedOut ? "⛔ blocked (⏱ timed out)" : `⛔ blocked (failed, ${exit})`;
  if (g.passed) return "✅ passed";
  return g.required ? `⚠️ failed (${exit}), not blocking` : `❌ failed (${exit}), optional`;
}

/** What the attempt's tests did since the baseline, in short: regressions and targets first (a history: later fixes do not erase them). */
function changesCell(g: ReportGate): string {
  const few = (ids: string[] | undefined) => (ids ?? []).slice(0, 3).join("; ") + ((ids?.length ?? 0) > 3 ? `; … (${ids?.length})` : "");
  const parts: string[] = [];
  if (g.gateChange?.length && !g.gateChangeApproved) parts.push(`gate change refused: ${few(g.gateChange)}`);
  if (g.regressions?.length) parts.push(`${CHANGE_WORDS.regressed}: ${few(g.regressions)}`);
  if (g.preExisting?.length) parts.push(`${g.preExistingAllowed ? "pre-existing" : "still failing"}: ${few(g.preExisting)}`);
  if (g.newFailures?.length) parts.push(`${CHANGE_WORDS.newFailing}: ${few(g.newFailures)}`);
  if (g.knownFailures?.length) parts.push(`${CHANGE_WORDS.known}: ${few(g.knownFailures.map((k) => k.id))}`);
  if (g.fixed?.length) parts.push(`${CHANGE_WORDS.fixed}: ${few(g.fixed)}`);
  return parts.join(" · ");
}

/** Each test that did not simply keep passing, with its final state; the tests that kept passing are counted. */
function testLines(r: ReportData): string[] {
  const all = [...(r.tests?.values() ?? [])].flat();
  if (!all.length) return [];
  const shown = all.filter((t) => t.state !== "passed");
  const kept = all.length - shown.length;
  const rows = shown.map((t) => `| ${code(t.id)} | ${cell(t.gate)} | ${t.state}${t.detail ? ` (${cell(t.detail)})` : ""} |`);
  const head = `Tests at the end of the run: ${plural(kept, "test")} passing as at the baseline${shown.length ? "; the others:" : "."}`;
  return ["", head, ...(shown.length ? ["", "| test | gate | final state |", "|---|---|---|", ...rows] : [])];
}

/** Failing tests a human accepted as known failures for this thread after dev said they are unrelated. */
function acceptedLines(r: ReportData): string[] {
  const accepted = r.acceptedFailures ?? [];
  if (!accepted.length) return [];
  return [
    "",
    `**Accepted by a human as known failures** (dev said they are not part of the task): ${accepted.map((a) => `${code(a.id)} (gate ${cell(a.gate)}, at ${cell(a.by)})`).join(", ")}`,
  ];
}

/** How many pre-existing failures a passed run's reason names (`baseline: "report"`), 0 when none. */
function preExistingIn(reason: string | null): number {
  const m = reason?.startsWith("completed: ") ? / \((\d+) pre-existing failures?: /.exec(reason) : null;
  return m ? Number(m[1]) : 0;
}

/** The baseline yolo took before any agent changed a file, or the run's lack of any gate. */
function baselineLines(r: ReportData): string[] {
  const b = r.baseline;
  if (!b) return [];
  if (b.noGate) return [`**No gate:** ${inline(b.noGate)}. The run completed without a gate: no test decided whether the change works.`, ""];
  const each = b.gates.map((g) => {
    const tests =
      g.tests !== null
        ? plural(g.tests, "test")
        : g.passedCount !== null || g.failedCount !== null
          ? `${g.passedCount ?? "?"} passed, ${g.failedCount ?? "?"} failed`
          : "counts unknown";
    return `${inline(g.name)} ${g.passed ? "passed" : "failed"} (${tests})`;
  });
  return [`Baseline before any agent changed a file: ${each.join("; ")}.`, ""];
}

function usage(r: ReportData): string[] {
  const rows = Object.entries(r.usageByNode).map(
    ([node, u]) => `| ${cell(node)} | ${u.calls} | ${count(u.promptTokens)} | ${count(u.completionTokens)} | ${count(u.totalTokens)} |`,
  );
  const u = r.usage;
  const out = [
    "| agent | calls | prompt tokens | completion tokens | total |",
    "|---|---:|---:|---:|---:|",
    ...rows,
    `| **total** | **${u.calls}** | **${count(u.promptTokens)}** | **${count(u.completionTokens)}** | **${count(u.totalTokens)}** |`,
    "",
  ];
  if (u.cachedTokens) out.push(`Of the prompt tokens, ${count(u.cachedTokens)} were served from the provider's prompt cache.`, "");
  if (r.cost) {
    const p = r.cost.price;
    out.push(
      `Cost: **${money(r.cost.amount)} ${r.cost.currency}** at ${p.inputPerMillion} / ${p.outputPerMillion} ${r.cost.currency} per million prompt / completion tokens (\`model.price\`; every agent counted at that price).`,
    );
  } else {
    out.push("Cost: not computed, tokens only (no `model.price` in yolo.config.ts).");
  }
  return out;
}

function quote(text: string): string[] {
  return (text.trim() || "(no requirement)").split("\n").map((l) => `> ${l}`.trimEnd());
}

// Text inside a table cell: also no pipes, which would split the cell.
function cell(text: string): string {
  return inline(text).replace(/\|/g, "\\|");
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function money(amount: number): string {
  return amount >= 1 ? amount.toFixed(2) : amount.toPrecision(2);
}
