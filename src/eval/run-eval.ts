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
  // One task at a time under bubblewrap, the next task's run starts as soon as this one's has ended, while this one is
  // judged: the judge's commands are sandboxed, none sees the other's tree (the project checkout is shown empty), as
  // with tasks run side by side. Each task's run still starts after the one before it ended, and the budget counts
  // a run's spending as soon as it has ended, before its judging.
  const overlap = workers === 1 && input.ctx.suite.commands.sandbox.kind === "bwrap";
  const worker = async () => {
    // Each task's run and judging; a failure stops the loop and is raised once every task still being judged is done,
    // so none is left running behind the error. Results are reported in the order the tasks started.
    const tasksGoing: Promise<void>[] = [];
    let reported: Promise<unknown> = Promise.resolve();
    let failed = false;
    const stop = () => {
      failed = true;
    };
    while (next < jobs.length && !input.ctx.signal?.aborted && !failed) {
      const { task, model, slot } = jobs[next++];
      const spent = meter.exhausted();
      if (spent) {
        await reported;
        results[slot] = notRunResult(task, model.label, spent, input.ctx.setting.tests);
        input.onResult?.(results[slot]);
        continue;
      }
      input.onStart?.(task, model);
      const ran = runEnd();
      const before = reported;
      const done = runTask(task, model, input.ctx, prepareNext, overlap ? (used) => ran.ended(() => meter.add(used)) : undefined).then(async (r) => {
        results[slot] = r;
        if (!ran.counted) meter.add(r);
        await before;
        input.onResult?.(r);
      });
      tasksGoing.push(done);
      reported = done.catch(stop);
      await Promise.race([ran.promise, done]).catch(stop);
    }
    const settled = await Promise.allSettled(tasksGoing);
    const failure = settled.find((s) => s.status === "rejected");
    if (failure) throw (failure as PromiseRejectedResult).reason;
  };
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    await settleAhead();
  }
  return results.filter(Boolean);
}

// A task's run's end, heard before its judging (runTask's whenRunEnded): `count` adds what it spent to the budget.
function runEnd(): { promise: Promise<void>; counted: boolean; ended(count: () => void): void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  const end = {
    promise,
    counted: false,
    ended(count: () => void) {
      count();
      end.counted = true;
      resolve();
    },
  };
  return end;
}
