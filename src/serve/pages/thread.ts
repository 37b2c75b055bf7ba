import { judgementNotes, judgedVerdict, readingWords } from "../../events/judgement-words.js";
import type { HistoryEntry } from "../../engine/history-entries.js";
import type { ThreadPosition } from "../../engine/position.js";
import { costOf } from "../../report/data.js";
import { outputSections } from "../../roles/displays.js";
import type { PipelineStateType } from "../../state/pipeline.js";
import type { ThreadRow } from "../../store/thread-store.js";
import { html, type Safe } from "../html.js";
import type { ThreadSource } from "../source.js";
import type { ToolCallLine } from "../tool-calls.js";
import { replyForm } from "./reply-form.js";
import { money, page, statusClass, tokens, when } from "./layout.js";

/**
 * What a thread page shows besides the source's readings: the form's CSRF token (null: no form, the thread is an eval
 * task's, read from its own database), a notice after a reply, and the eval task the thread ran.
 */
export interface ThreadPageInput {
  csrf: string | null;
  notice: string | null;
  evalTask?: { eval: string; task: string; model: string; href: string } | null;
}

/** A thread: status, requirement, what it waits on (with the reply form), timeline, outputs, gate runs, usage, diff. */
export async function threadPage(source: ThreadSource, row: ThreadRow, input: ThreadPageInput): Promise<string> {
  // Read at once: a live page is fetched again at each step of a run, and the diff's git calls are the slow part.
  const [state, history, diff] = await Promise.all([source.state(row.id), source.history(row.id).catch(() => []), source.diff(row)]);
  const values = state?.values ?? null;
  const body = html`<h1>Thread ${row.id} — <span class="${statusClass(row.status)}">${row.status}</span></h1>
${row.reason ? html`<p>${row.reason}</p>` : null}
${input.notice ? html`<p class="notice" id="notice">${input.notice}</p>` : null}
${input.evalTask ? html`<p id="eval-task">Eval <a href="${input.evalTask.href}">${input.evalTask.eval}</a>, task ${input.evalTask.task}, model ${input.evalTask.model}: read from the task's worktree; answer it there.</p>` : null}
<p class="muted">${row.mode} · model ${row.model} · started ${when(row.createdAt)} · updated ${when(row.updatedAt)}${row.branch ? ` · branch ${row.branch}` : ""}${row.host ? ` · ${row.user ?? "?"}@${row.host}` : ""}</p>
<h2>Requirement</h2><pre id="requirement">${values?.requirement ?? row.requirement}</pre>
${state ? waiting(row.id, state.position, input.csrf, source) : null}
${timeline(history)}
${toolCalls(source.toolCalls(row))}
${values ? outputs(values) : null}
${values ? gateRuns(values) : null}
${values ? usage(values, source) : null}
<h2>Diff since the start commit</h2>${"patch" in diff ? html`<pre id="diff">${diff.patch || "No changes since the start commit."}</pre>` : html`<p class="muted">${diff.note}</p>`}`;
  // An eval task's thread is not in the rows the live updates read: its page is not live.
  return page(`Thread ${row.id}`, body, input.evalTask ? null : `thread:${row.id}`);
}

// What the thread waits on, with the form; or the reply saved and not yet taken.
function waiting(id: string, position: ThreadPosition, csrf: string | null, source: ThreadSource): Safe | null {
  if (position.kind === "answered") {
    return html`<p class="notice" id="answered">Answered, not yet taken (${position.askedBy}). Continue with: <code>${source.resumeCommand(id)}</code></p>`;
  }
  if (position.kind !== "waiting") return null;
  const review = position.request.kind === "approval";
  return html`<h2>Waiting for ${review ? "a review" : "an answer"} (${position.askedBy})</h2>
<pre id="question">${position.question}</pre>${csrf === null ? null : replyForm(id, review, csrf)}`;
}

function timeline(history: HistoryEntry[]): Safe | null {
  if (!history.length) return null;
  const items = history.map(
    (h) =>
      html`<li><time class="muted" datetime="${h.createdAt}">step ${h.step} · ${when(h.createdAt)}</time> <strong>${h.node}</strong> — ${h.summary}${h.next.length ? html` <span class="muted">→ ${h.next.join(", ")}</span>` : null}</li>`,
  );
  return html`<h2>Timeline</h2><ol class="timeline" id="timeline">${items}</ol>`;
}

// Every tool call, per agent in the order made, with whether the tool answered ok.
function toolCalls(calls: ToolCallLine[]): Safe | null {
  if (!calls.length) return null;
  const rows = calls.map(
    (c) => html`<tr><td>${c.node}</td><td>${c.name}</td><td><code>${c.args}</code></td><td>${c.ok === null ? "–" : c.ok ? "ok" : "failed"}</td></tr>`,
  );
  return html`<h2>Tool calls</h2><table id="tool-calls"><thead><tr><th>Agent</th><th>Tool</th><th>Arguments</th><th>Result</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// What the roles produced (as `yolo show` lists it), then the switch decisions and the human reviews.
function outputs(s: PipelineStateType): Safe {
  const roles = outputSections(s);
  const sections = [...roles.work, ...roles.judgement].filter((r) => r.text.length).map((r) => html`<h2>${r.title}</h2><pre>${r.text.join("\n")}</pre>`);
  const decisions = s.switchDecisions.map(
    (d) => html`<li>${d.node}: case ${d.taken} → ${d.to}${d.fallback ? ` (fallback: ${d.fallback})` : ""}; the model answered ${d.raw || "nothing"}</li>`,
  );
  const reviews = s.reviews.map((r) => html`<li>${r.by}${r.node ? ` on ${r.node}` : ""}: ${r.action}${r.reason ? ` — ${r.reason}` : ""}</li>`);
  return html`${sections}${decisions.length ? html`<h2>Decisions</h2><ul>${decisions}</ul>` : null}${reviews.length ? html`<h2>Human reviews</h2><ul>${reviews}</ul>` : null}`;
}

// Every gate run: its verdict and counts, then per test what changed since the baseline (all of them, not five).
function gateRuns(s: PipelineStateType): Safe | null {
  if (!s.gateHistory.length) return null;
  const rows = s.gateHistory.map(
    (g) => html`<tr><td>${g.attempt}</td><td>${g.name}</td><td><code>${g.command}</code></td><td>${g.timedOut ? "timed out" : judgedVerdict(g)}</td>
<td>${g.passedCount ?? "?"} passed, ${g.failedCount ?? "?"} failed${g.reading ? html`<br><span class="muted">${readingWords(g.reading)}</span>` : null}</td>
<td>${judgementNotes(g, 1000).map((n) => html`<div>${n}</div>`)}</td></tr>`,
  );
  return html`<h2>Gate runs</h2><table id="gates"><thead><tr><th>Attempt</th><th>Gate</th><th>Command</th><th>Verdict</th><th>Counts</th><th>Per test</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function usage(s: PipelineStateType, source: ThreadSource): Safe {
  const cost = source.price ? ` · cost ${money(costOf(s.usage, source.price), source.price.currency)}` : "";
  const perNode = Object.entries(s.usageByNode).map(
    ([node, u]) => html`<li>${node}: ${tokens(u.totalTokens)} tokens in ${u.calls} call${u.calls === 1 ? "" : "s"}</li>`,
  );
  return html`<h2>Tokens</h2><p>${s.usage.estimated ? "~" : ""}${tokens(s.usage.totalTokens)} tokens in ${s.usage.calls} calls${cost}</p><ul>${perNode}</ul>`;
}
