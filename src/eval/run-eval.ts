import type { TaskRunContext } from "./task-run.js";
import { runTask } from "./task-run.js";
import type { EvalTask, TaskResult } from "./types.js";

/** A model of the eval: its label in results, and the name passed to `--model` (null: the configured model). */
export interface EvalModel {
  label: string;
  name: string | null;
}

/**
 * Runs every task with every model, `parallel` at a time, each as its own yolo thread. Results come back in task
 * order per model whatever order they finish in; `onResult` hears each as it is judged (for a live count).
 */
export async function runEval(input: {
  tasks: EvalTask[];
  models: EvalModel[];
  parallel: number;
  ctx: TaskRunContext;
  onResult?(r: TaskResult): void;
}): Promise<TaskResult[]> {
  const jobs = input.models.flatMap((model) => input.tasks.map((task) => ({ task, model })));
  const results: TaskResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !input.ctx.signal?.aborted) {
      const i = next++;
      results[i] = await runTask(jobs[i].task, jobs[i].model, input.ctx);
      input.onResult?.(results[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.parallel, jobs.length)) }, worker));
  return results.filter(Boolean);
}
