import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { summarize } from "../eval/summary.js";
import type { TaskResult } from "../eval/types.js";
import type { EvalReading } from "./source.js";

/**
 * The evals `yolo eval` stored: each `<evalDir>/runs/<name>/<model>/<task>.result.json` (see docs/eval.md), one
 * reading per name, summarised by the same function the eval's own report uses. A file that does not parse is left
 * out (an eval writing it now); nothing here is computed another way. Each result keeps its model's folder, where its
 * task's worktree (and the thread's database) is.
 */
export function readEvalResults(evalDir: string): EvalReading[] {
  const runs = join(evalDir, "runs");
  return dirs(runs)
    .map((name) => {
      const results = dirs(join(runs, name)).flatMap((model) => resultsIn(join(runs, name, model)).map((r) => ({ ...r, modelDir: model })));
      const models = [...new Set(results.map((r) => r.model))];
      return { name, results, summaries: summarize(results, models) };
    })
    .filter((e) => e.results.length > 0);
}

function dirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function resultsIn(dir: string): TaskResult[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".result.json"));
  } catch {
    return [];
  }
  return files.sort().flatMap((f) => {
    try {
      return [JSON.parse(readFileSync(join(dir, f), "utf8")) as TaskResult];
    } catch {
      return [];
    }
  });
}
