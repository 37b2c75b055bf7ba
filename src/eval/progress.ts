import type { TaskResult } from "./types.js";

/** One model's running figures while an eval runs. */
export interface ProgressRow {
  model: string;
  done: number;
  total: number;
  running: number;
  resolved: number;
  canaries: number;
  canariesTampered: number;
  notRun: number;
  tokens: number;
  /** Null when a judged task has no cost (no model.price). */
  cost: number | null;
}

/**
 * The live count of an eval (tasks done of total, resolved so far, tokens and cost so far, per model), fed by the
 * eval's start and result callbacks; it renders text only (a table for a terminal, a line for a pipe) and writes nothing.
 */
export class EvalProgress {
  private readonly rows: Map<string, ProgressRow>;

  /**
   * `tasksPerModel`: the task runs of each model (a shard's share differs by model); `priced`: whether cost is
   * counted (model.price), without it the cost column says "–" from the start.
   */
  constructor(models: string[], tasksPerModel: number | ((model: string) => number), priced = true) {
    const total = (model: string) => (typeof tasksPerModel === "number" ? tasksPerModel : tasksPerModel(model));
    this.rows = new Map(
      models.map((model) => [
        model,
        { model, done: 0, total: total(model), running: 0, resolved: 0, canaries: 0, canariesTampered: 0, notRun: 0, tokens: 0, cost: priced ? 0 : null },
      ]),
    );
  }

  started(model: string): void {
    const row = this.rows.get(model);
    if (row) row.running++;
  }

  finished(r: TaskResult): void {
    const row = this.rows.get(r.model);
    if (!row) return;
    if (r.verdict !== "not-run") row.running = Math.max(0, row.running - 1);
    row.done++;
    if (r.verdict === "resolved") row.resolved++;
    if (r.verdict === "not-run") row.notRun++;
    else if (r.canary) {
      row.canaries++;
      if (r.tamperAttempts > 0) row.canariesTampered++;
    }
    row.tokens += r.tokens;
    row.cost = row.cost === null || r.cost === null ? null : row.cost + r.cost;
  }

  /** Every model's row, then the total over them. */
  all(): ProgressRow[] {
    const rows = [...this.rows.values()];
    const sum = (k: "done" | "total" | "running" | "resolved" | "canaries" | "canariesTampered" | "notRun" | "tokens") => rows.reduce((a, r) => a + r[k], 0);
    const cost = rows.some((r) => r.cost === null) ? null : rows.reduce((a, r) => a + (r.cost as number), 0);
    const total: ProgressRow = {
      model: "all",
      done: sum("done"),
      total: sum("total"),
      running: sum("running"),
      resolved: sum("resolved"),
      canaries: sum("canaries"),
      canariesTampered: sum("canariesTampered"),
      notRun: sum("notRun"),
      tokens: sum("tokens"),
      cost,
    };
    return [...rows, total];
  }

  /** A plain line for a pipe: the whole count, the model's own count, then the task's verdict and why. */
  line(r: TaskResult): string {
    const rows = this.all();
    const all = rows[rows.length - 1];
    const own = this.rows.get(r.model);
    const mine = own ? ` | ${own.model}: ${own.done}/${own.total}, ${own.resolved} resolved` : "";
    return `[${all.done}/${all.total}, ${all.resolved} resolved, ${spend(all)}${mine}] ${r.model} ${r.task}: ${r.verdict} (${r.reason})`;
  }

  /** The table for a terminal, a line per model and the total, columns aligned. */
  table(): string[] {
    const head = ["model", "done", "running", "resolved", "canaries tampered", "not run (budget)", "tokens", "cost"];
    const body = this.all().map((r) => [
      r.model,
      `${r.done}/${r.total}`,
      String(r.running),
      String(r.resolved),
      `${r.canariesTampered}/${r.canaries}`,
      String(r.notRun),
      String(r.tokens),
      r.cost === null ? "–" : r.cost.toFixed(4),
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
    const fmt = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i]))
        .join("  ")
        .trimEnd();
    return [fmt(head), ...body.map(fmt)];
  }
}

function spend(r: ProgressRow): string {
  return r.cost === null ? `${r.tokens} tokens` : `${r.tokens} tokens, cost ${r.cost.toFixed(4)}`;
}
