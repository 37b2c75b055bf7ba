import { costOf } from "../../report/data.js";
import type { ThreadRow } from "../../store/thread-store.js";
import { html, type Safe } from "../html.js";
import { type ListReading, ListReadings } from "../list-readings.js";
import type { ThreadSource } from "../source.js";
import { money, page, statusClass, tokens, when } from "./layout.js";

/** The statuses the filter offers; `any` shows them all. */
export const STATUS_FILTERS = ["any", "running", "waiting", "passed", "failed", "interrupted"] as const;
/** Rows shown at most: the newest matching ones (the filters narrow the rest). */
export const LIST_LIMIT = 200;

/** The filters of the list, read from the query string (so they work without JavaScript). */
export interface ListFilter {
  status: string;
  q: string;
}

export function listFilter(url: URL): ListFilter {
  const status = url.searchParams.get("status") ?? "any";
  return { status: (STATUS_FILTERS as readonly string[]).includes(status) ? status : "any", q: (url.searchParams.get("q") ?? "").trim() };
}

/** The rows a filter keeps: a status (a failed thread includes errors and limits) and words in any text column. */
export function filterRows(rows: ThreadRow[], f: ListFilter): ThreadRow[] {
  const words = f.q.toLowerCase();
  return rows.filter((r) => {
    if (f.status !== "any" && !statusMatches(r.status, f.status)) return false;
    if (!words) return true;
    return [r.id, r.requirement, r.branch, r.host, r.user, r.model, r.root].some((t) => t?.toLowerCase().includes(words));
  });
}

function statusMatches(status: string, wanted: string): boolean {
  return wanted === "failed" ? ["failed", "error", "limit"].includes(status) : status === wanted;
}

/** The threads page: filters, then one row per thread with its gate outcome, tokens and cost read from its state. */
export async function listPage(source: ThreadSource, url: URL, readings = new ListReadings(source)): Promise<string> {
  const f = listFilter(url);
  const all = await source.list();
  const rows = filterRows(all, f);
  const shown = rows.slice(0, LIST_LIMIT);
  const cells = await Promise.all(shown.map(async (r) => rowCells(source, r, await readings.of(r.id))));
  const more = rows.length > shown.length ? html`<p class="muted">Showing the newest ${shown.length} of ${rows.length}: narrow the filters.</p>` : null;
  const body = html`<h1>Threads</h1>
${filters(f)}
<p class="muted" id="count">${rows.length} of ${all.length} thread${all.length === 1 ? "" : "s"}</p>
<table id="threads"><thead><tr><th>Thread</th><th>Status</th><th>Requirement</th><th>Gate</th><th>Tokens</th><th>Cost</th><th>Updated</th><th>Branch</th><th>Machine</th></tr></thead>
<tbody>${cells}</tbody></table>${more}`;
  return page("Threads", body, "list");
}

function filters(f: ListFilter): Safe {
  const options = STATUS_FILTERS.map((s) => html`<option value="${s}"${s === f.status ? html` selected` : null}>${s}</option>`);
  return html`<form class="filters" method="get" action="/">
<label>Status <select name="status">${options}</select></label>
<label>Text <input type="search" name="q" value="${f.q}" placeholder="requirement, branch, machine…"></label>
<button type="submit">Filter</button></form>`;
}

function rowCells(source: ThreadSource, r: ThreadRow, reading: ListReading | null): Safe {
  const usage = reading?.usage;
  const cost = usage && source.price ? money(costOf(usage, source.price), source.price.currency) : "–";
  const gate = reading ? reading.gate : "–";
  const status = reading?.answered ? "answered" : r.status;
  return html`<tr data-thread="${r.id}"><td><a href="/threads/${encodeURIComponent(r.id)}">${r.id}</a></td>
<td class="${statusClass(r.status)}">${status}</td><td class="req">${r.requirement}</td><td>${gate}</td>
<td>${usage ? tokens(usage.totalTokens) : "–"}</td><td>${cost}</td><td>${when(r.updatedAt)}</td><td>${r.branch ?? "–"}</td>
<td>${r.host ? `${r.user ?? "?"}@${r.host}` : "–"}</td></tr>`;
}
