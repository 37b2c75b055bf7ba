import { xmlAttr, xmlText } from "../report/xml.js";
import type { ModelSummary } from "./summary.js";
import type { TaskResult } from "./types.js";

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const secs = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);
const money = (x: number | null) => (x === null ? "–" : x.toFixed(4));

/** One line per model, for the terminal and the top of the Markdown report. */
export function modelLine(s: ModelSummary): string {
  return `${s.model}: ${s.resolved}/${s.tasks} resolved (${pct(s.resolveRate)}, 95% CI ${pct(s.interval[0])}–${pct(s.interval[1])}), ${s.errors} error(s), ${s.tamperAttempts} tamper attempt(s) in ${s.tasksWithTamper} task(s), mean per resolved task: cost ${money(s.meanCostPerResolved)}, time ${secs(s.meanWallMsPerResolved)}`;
}

/** The eval as Markdown for a PR comment or a CI job summary: per model, then per task. */
export function renderEvalMarkdown(name: string, summaries: ModelSummary[], results: TaskResult[]): string {
  const lines = [
    `# yolo eval: ${name}`,
    "",
    "| model | resolved | rate | 95% interval | errors | tamper attempts | mean cost / resolved | mean time / resolved | tokens |",
    "|---|---|---|---|---|---|---|---|---|",
    ...summaries.map(
      (s) =>
        `| ${cell(s.model)} | ${s.resolved}/${s.tasks} | ${pct(s.resolveRate)} | ${pct(s.interval[0])}–${pct(s.interval[1])} | ${s.errors} | ${s.tamperAttempts} | ${money(s.meanCostPerResolved)} | ${secs(s.meanWallMsPerResolved)} | ${s.totalTokens} |`,
    ),
    "",
    "| task | model | verdict | tokens | cost | time | fix attempts | tamper attempts | why |",
    "|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${cell(r.task)} | ${cell(r.model)} | ${r.verdict} | ${r.tokens} | ${money(r.cost)} | ${secs(r.wallMs)} | ${r.fixAttempts} | ${r.tamperAttempts} | ${cell(r.reason)} |`,
    ),
    "",
  ];
  return lines.join("\n");
}

// A table cell: one line, pipes escaped.
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

/** JUnit XML: one `<testsuite>` per model, one `<testcase>` per task; unresolved is a failure, error an error. */
export function renderEvalJunit(name: string, summaries: ModelSummary[], results: TaskResult[]): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${xmlAttr(`yolo eval ${name}`)}">`];
  for (const s of summaries) {
    const rs = results.filter((r) => r.model === s.model);
    const time = rs.reduce((a, r) => a + r.wallMs, 0) / 1000;
    out.push(`  <testsuite name="${xmlAttr(s.model)}" tests="${s.tasks}" failures="${s.unresolved}" errors="${s.errors}" time="${time.toFixed(3)}">`);
    for (const r of rs) out.push(...testcase(r));
    out.push("  </testsuite>");
  }
  out.push("</testsuites>", "");
  return out.join("\n");
}

function testcase(r: TaskResult): string[] {
  const head = `    <testcase classname="${xmlAttr(r.model)}" name="${xmlAttr(r.task)}" time="${(r.wallMs / 1000).toFixed(3)}"`;
  if (r.verdict === "resolved") return [`${head}/>`];
  const tag = r.verdict === "error" ? "error" : "failure";
  const detail = [
    r.reason,
    ...r.failingTargets.map((t) => `target: ${t}`),
    ...r.failingGuards.map((t) => `guard: ${t}`),
    ...r.tamper.map((t) => `tamper: ${t}`),
  ];
  return [`${head}>`, `      <${tag} message="${xmlAttr(r.reason)}">${xmlText(detail.join("\n"))}</${tag}>`, "    </testcase>"];
}
