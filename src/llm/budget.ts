import type { ResolvedConfig } from "../config/schema.js";
import { limitError } from "../errors.js";
import type { Usage } from "../events/schema.js";

/** The cost of some usage at the configured price, or null without a price. */
export function costOf(usage: Usage, price: ResolvedConfig["model"]["price"]): number | null {
  if (!price) return null;
  return (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1_000_000;
}

/**
 * Checked before each model call: throws a LimitError (kind "budget", exit 7; the thread stays resumable) once the run's usage,
 * resumes included, has reached `maxTokens` (prompt + completion) or `maxCost`.
 */
export function checkBudget(usage: Usage, budget: ResolvedConfig["budget"], price: ResolvedConfig["model"]["price"]): void {
  const tokens = usage.promptTokens + usage.completionTokens;
  // Written as `!(tokens < max)` so a count that is not a number stops the run instead of passing every check.
  if (budget.maxTokens !== null && !(tokens < budget.maxTokens)) {
    const said = `The run reached its token budget: ${tokens} of ${budget.maxTokens} tokens used.`;
    throw limitError(
      { kind: "budget", setting: "maxTokens", said },
      "The thread is saved and completed agents will not run again: resume it with a higher budget.maxTokens.",
    );
  }
  const cost = costOf(usage, price);
  if (budget.maxCost !== null && cost !== null && price && !(cost < budget.maxCost)) {
    const said = `The run reached its cost budget: ${cost.toFixed(4)} of ${budget.maxCost} ${price.currency} spent.`;
    throw limitError(
      { kind: "budget", setting: "maxCost", said },
      "The thread is saved and completed agents will not run again: resume it with a higher budget.maxCost.",
    );
  }
}
