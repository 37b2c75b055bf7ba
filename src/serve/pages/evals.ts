import type { ModelSummary } from "../../eval/summary.js";
import { html, type Safe } from "../html.js";
import type { EvalReading } from "../source.js";
import { page } from "./layout.js";

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const secs = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(1)} s`);
const cost = (x: number | null) => (x === null ? "–" : x.toFixed(4));

/** The evals page: per eval, a plot of each model's resolve rate with its 95% interval, the table, then task by task. */
export function evalsPage(evals: EvalReading[]): string {
  const body = evals.length
    ? html`<h1>Evals</h1>${evals.map(evalSection)}`
    : html`<h1>Evals</h1><p>No eval results yet. Run one with <code>yolo eval --tasks &lt;file&gt;</code> (see docs/eval.md).</p>`;
  return page("Evals", body, "evals");
}

function evalSection(e: EvalReading): Safe {
  const models = e.summaries.map(
    (s) => html`<tr><td>${s.model}</td><td>${s.resolved}/${s.tasks}</td><td>${pct(s.resolveRate)}</td><td>${pct(s.interval[0])}–${pct(s.interval[1])}</td>
<td>${cost(s.meanCostPerResolved)}</td><td>${secs(s.meanWallMsPerResolved)}</td><td>${s.tamperAttempts} in ${s.tasksWithTamper} task(s)</td><td>${s.errors}</td></tr>`,
  );
  const tasks = e.results.map(
    (r) => html`<tr><td>${r.task}</td><td>${r.model}</td><td>${r.canary ? `canary, ${r.verdict}` : r.verdict}</td>
<td>${r.thread ? html`<a href="${taskHref(e.name, r.modelDir, r.task)}">${r.thread}</a>` : "–"}</td><td>${r.tokens}</td><td>${cost(r.cost)}</td><td>${secs(r.wallMs)}</td><td>${r.tamperAttempts}</td><td class="req">${r.reason}</td></tr>`,
  );
  return html`<h2>${e.name}</h2>${ratePlot(e.summaries)}
<table class="models"><thead><tr><th>Model</th><th>Resolved</th><th>Rate</th><th>95% interval</th><th>Cost / resolved</th><th>Time / resolved</th><th>Tamper attempts</th><th>Errors</th></tr></thead><tbody>${models}</tbody></table>
<h2>${e.name}: task by task</h2>
<table class="tasks"><thead><tr><th>Task</th><th>Model</th><th>Verdict</th><th>Thread</th><th>Tokens</th><th>Cost</th><th>Time</th><th>Tamper</th><th>Why</th></tr></thead><tbody>${tasks}</tbody></table>`;
}

/** The page of a task's thread: `/evals/<eval>/<model folder>/<task>` (src/serve/server.ts). */
export function taskHref(name: string, modelDir: string, task: string): string {
  return `/evals/${[name, modelDir, task].map(encodeURIComponent).join("/")}`;
}

/**
 * Each model's resolve rate as a bar with its 95% Wilson interval as a whisker, drawn on the server as SVG
 * (readable without JavaScript; styled by classes from the one stylesheet, no inline style).
 */
export function ratePlot(summaries: ModelSummary[]): Safe {
  const rowH = 28;
  const left = 180;
  const width = 400;
  const height = summaries.length * rowH + 30;
  const x = (v: number) => (left + v * width).toFixed(1);
  const bars = summaries.map((s, i) => {
    const y = 10 + i * rowH;
    return html`<g><text x="${left - 8}" y="${y + 15}" text-anchor="end">${s.model}</text>
<rect class="bar" x="${left}" y="${y + 4}" width="${(s.resolveRate * width).toFixed(1)}" height="${rowH - 12}"><title>${s.model}: ${pct(s.resolveRate)} (95% interval ${pct(s.interval[0])}–${pct(s.interval[1])})</title></rect>
<line class="ci" x1="${x(s.interval[0])}" x2="${x(s.interval[1])}" y1="${y + 10}" y2="${y + 10}"></line>
<text x="${left + width + 8}" y="${y + 15}">${pct(s.resolveRate)} [${pct(s.interval[0])}–${pct(s.interval[1])}]</text></g>`;
  });
  const axisY = summaries.length * rowH + 12;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => html`<text x="${x(t)}" y="${axisY + 14}" text-anchor="middle">${pct(t)}</text>`);
  return html`<svg class="plot" role="img" aria-label="Resolve rate per model with its 95% interval" viewBox="0 0 ${left + width + 130} ${height + 10}" xmlns="http://www.w3.org/2000/svg">
<line class="axis" x1="${left}" x2="${left + width}" y1="${axisY}" y2="${axisY}"></line>${ticks}${bars}</svg>`;
}
