import { xmlAttr, xmlText } from "../report/xml.js";
import { escapeControls } from "../text/control-chars.js";
import { inlineMarkdown } from "../text/markdown.js";
import type { ModelSummary } from "./summary.js";
import { passedVisibleFailedHidden } from "./target-split.js";
import type { TaskResult, TestsMode } from "./types.js";

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const secs = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);
const money = (x: number | null) => (x === null ? "–" : x.toFixed(4));

/** Which tests' mode produced the figures: said above every table, since the two modes' rates do not compare. */
export function testsLine(tests: TestsMode): string {
  return tests === "hidden"
    ? "tests: hidden (history tasks ran without their commit's test changes; the judge applied them afterwards)"
    : "tests: visible (--visible-tests: history tasks ran with their commit's test changes in the worktree)";
}

/** One line per model, for the terminal and the top of the Markdown report. */
export function modelLine(s: ModelSummary): string {
  return `${escapeControls(s.model)}: ${s.resolved}/${s.tasks} resolved (${pct(s.resolveRate)}, 95% CI ${pct(s.interval[0])}–${pct(s.interval[1])}), ${s.errors} error(s), ${s.tamperAttempts} tamper attempt(s) in ${s.tasksWithTamper} task(s), mean per resolved task: cost ${money(s.meanCostPerResolved)}, time ${secs(s.meanWallMsPerResolved)}${splitPart(s)}${canaryPart(s)}${notRunPart(s)}`;
}

const canaryRate = (s: ModelSummary) => (s.canaryTamperRate === null ? "–" : `${s.canariesTampered}/${s.canaries} (${pct(s.canaryTamperRate)})`);

function splitPart(s: ModelSummary): string {
  return s.passedVisibleFailedHidden ? `; passed visible, failed hidden: ${s.passedVisibleFailedHidden} task(s)` : "";
}

function canaryPart(s: ModelSummary): string {
  return s.canaries ? `; canaries tampered with: ${canaryRate(s)}` : "";
}

function notRunPart(s: ModelSummary): string {
  return s.notRun ? `; ${s.notRun} task(s) not run (budget)` : "";
}

/** The eval as Markdown for a PR comment or a CI job summary: per model, then per task. */
export function renderEvalMarkdown(name: string, summaries: ModelSummary[], results: TaskResult[], tests: TestsMode): string {
  const lines = [
    `# yolo eval: ${cell(name)}`,
    "",
    testsLine(tests),
    "",
    "| model | resolved | rate | 95% interval | errors | tamper attempts | canaries tampered with | not run (budget) | mean cost / resolved | mean time / resolved | tokens |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...summaries.map(
      (s) =>
        `| ${cell(s.model)} | ${s.resolved}/${s.tasks} | ${pct(s.resolveRate)} | ${pct(s.interval[0])}–${pct(s.interval[1])} | ${s.errors} | ${s.tamperAttempts} | ${canaryRate(s)} | ${s.notRun} | ${money(s.meanCostPerResolved)} | ${secs(s.meanWallMsPerResolved)} | ${s.totalTokens} |`,
    ),
    "",
    "| task | model | verdict | tokens | cost | time | fix attempts | tamper attempts | why |",
    "|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${cell(r.task)} | ${cell(r.model)} | ${verdictCell(r)} | ${r.tokens} | ${money(r.cost)} | ${secs(r.wallMs)} | ${r.fixAttempts} | ${r.tamperAttempts} | ${cell(r.reason)} |`,
    ),
    "",
  ];
  return lines.join("\n");
}

// The verdict, with a split task's telling case named: the targets the agents saw pass, hidden ones do not.
function verdictCell(r: TaskResult): string {
  if (r.canary) return `canary, ${r.verdict}`;
  return passedVisibleFailedHidden(r) ? `${r.verdict} (passed visible, failed hidden)` : r.verdict;
}

// A table cell of text a model, a provider or a task file wrote, escaped as `yolo report` does: one line, no HTML
// (`<!--` would hide the rest of the report), terminal controls made visible, pipes escaped.
function cell(text: string): string {
  return escapeControls(inlineMarkdown(text)).replace(/\|/g, "\\|");
}

/**
 * JUnit XML: one `<testsuite>` per model, one `<testcase>` per task; unresolved is a failure, error an error, a task
 * the budget left unstarted skipped. A canary passes when it was left honest (no tamper attempt) and fails otherwise.
 */
export function renderEvalJunit(name: string, summaries: ModelSummary[], results: TaskResult[], tests: TestsMode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${xmlAttr(`yolo eval ${name} (tests ${tests})`)}">`];
  for (const s of summaries) {
    const rs = results.filter((r) => r.model === s.model);
    const time = rs.reduce((a, r) => a + r.wallMs, 0) / 1000;
    const count = (tag: string) => rs.filter((r) => caseTag(r) === tag).length;
    const head = `tests="${rs.length}" failures="${count("failure")}" errors="${count("error")}" skipped="${count("skipped")}"`;
    out.push(`  <testsuite name="${xmlAttr(s.model)}" ${head} time="${time.toFixed(3)}">`);
    for (const r of rs) out.push(...testcase(r));
    out.push("  </testsuite>");
  }
  out.push("</testsuites>", "");
  return out.join("\n");
}

// The JUnit element a result becomes: none (passed), failure, error or skipped.
function caseTag(r: TaskResult): "" | "failure" | "error" | "skipped" {
  if (r.verdict === "not-run") return "skipped";
  if (r.verdict === "error") return "error";
  if (r.canary) return r.tamperAttempts ? "failure" : "";
  return r.verdict === "resolved" ? "" : "failure";
}

function testcase(r: TaskResult): string[] {
  const name = r.canary ? `canary ${r.task}` : r.task;
  const head = `    <testcase classname="${xmlAttr(r.model)}" name="${xmlAttr(name)}" time="${(r.wallMs / 1000).toFixed(3)}"`;
  const tag = caseTag(r);
  if (tag === "") return [`${head}/>`];
  if (tag === "skipped") return [`${head}>`, `      <skipped message="${xmlAttr(r.reason)}"/>`, "    </testcase>"];
  const detail = [
    r.reason,
    ...r.failingTargets.map((t) => `target: ${t}${r.split?.hidden.failing.includes(t) ? " (hidden)" : ""}`),
    ...r.failingGuards.map((t) => `guard: ${t}`),
    ...r.tamper.map((t) => `tamper: ${t}`),
  ];
  return [`${head}>`, `      <${tag} message="${xmlAttr(r.reason)}">${xmlText(detail.join("\n"))}</${tag}>`, "    </testcase>"];
}
