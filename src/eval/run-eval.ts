import { BudgetMeter, type EvalBudget, notRunResult } from "./budget.js";
import { inShard, type Shard, WHOLE } from "./shard.js";
import type { TaskRunContext } from "./task-run.js";
import { prepareAhead, runTask, settleAhead } from "./task-run.js";
import type { EvalTask, TaskResult } from "./types.js";

/** A model of the eval: its label in results, and the name passed to `--model` (null: the configured model). */
export interface EvalModel {
  label: string;
  name: string | null;
}

/**
 * Runs every task with every model, `parallel` at a time, each as its own yolo thread. The models take turns task by
 * task, so a whole-eval budget spent part-way leaves each model measured on about as many tasks. Results come back in
 * task order per model whatever order they finish in; `onStart` and `onResult` hear each task (for a live table).
 */
export async function runEval(input: {
  tasks: EvalTask[];
  models: EvalModel[];
  /** The share of tasks × models this process runs (shard.ts); the whole eval when not given. */
  shard?: Shard;
  parallel: number;
  ctx: TaskRunContext;
  budget?: EvalBudget;
  onStart?(task: EvalTask, model: EvalModel): void;
  onResult?(r: TaskResult): void;
}): Promise<TaskResult[]> {
  const { tasks, models } = input;
  // Job i*models + m is task i with model m; its result goes to slot m*tasks + i (model by model, as reported).
  const shard = input.shard ?? WHOLE;
  const jobs = tasks
    .flatMap((task, i) => models.map((model, m) => ({ task, model, slot: m * tasks.length + i })))
    .filter((job) => inShard(shard, job.task.id, job.model.label));
  const results: TaskResult[] = new Array(jobs.length);
  const meter = new BudgetMeter(input.budget ?? { maxCost: null, maxTokens: null });
  let next = 0;
  const workers = Math.max(1, Math.min(input.parallel, jobs.length));
  // One task at a time, its run mostly waits on the model: the next task's repository is made meanwhile. With more
  // at a time, the cores are busy already.
  const prepareNext = () => {
    const job = jobs[next];
    if (workers === 1 && job && !meter.exhausted() && !input.ctx.signal?.aborted) prepareAhead(job.task, job.model, input.ctx);
  };
  const worker = async () => {
    while (next < jobs.length && !input.ctx.signal?.aborted) {
      const { task, model, slot } = jobs[next++];
      const spent = meter.exhausted();
      if (spent) results[slot] = notRunResult(task, model.label, spent, input.ctx.setting.tests);
      else {
        input.onStart?.(task, model);
        results[slot] = await runTask(task, model, input.ctx, prepareNext);
        meter.add(results[slot]);
      }
      input.onResult?.(results[slot]);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    await settleAhead();
  }
  return results.filter(Boolean);
}
