import { describe, expect, it } from "vitest";
import { errorText } from "../../../src/cli/wording/error-text.js";
import { LimitError } from "../../../src/errors.js";
import { checkBudget, costOf } from "../../../src/llm/budget.js";

const usage = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, calls: 1 });
const price = { inputPerMillion: 2, outputPerMillion: 8, currency: "USD" };

describe("budgets", () => {
  it("prices usage per million tokens, or gives null without a price", () => {
    expect(costOf(usage(1_000_000, 500_000), price)).toBe(6);
    expect(costOf(usage(1, 1), null)).toBeNull();
  });

  it("passes under the budgets and without any", () => {
    expect(() => checkBudget(usage(10, 10), { maxTokens: null, maxCost: null }, null)).not.toThrow();
    expect(() => checkBudget(usage(10, 9), { maxTokens: 20, maxCost: 1 }, price)).not.toThrow();
  });

  it("throws a resumable LimitError once the tokens reach the budget", () => {
    const run = () => checkBudget(usage(15, 5), { maxTokens: 20, maxCost: null }, price);
    expect(run).toThrow(LimitError);
    expect(run).toThrow(/20 of 20 tokens used\. .*budget\.maxTokens/);
    expect(() => {
      try {
        run();
      } catch (error) {
        throw new Error(errorText(error, { thread: "t1" }));
      }
    }).toThrow(/20 of 20 tokens used.*yolo resume t1 --max-tokens N/);
  });

  it("throws once the cost reaches the budget", () => {
    const run = () => checkBudget(usage(500_000, 0), { maxTokens: null, maxCost: 1 }, price);
    expect(run).toThrow(/1\.0000 of 1 USD spent\. .*budget\.maxCost/);
    expect(() => {
      try {
        run();
      } catch (error) {
        throw new Error(errorText(error));
      }
    }).toThrow(/1\.0000 of 1 USD spent.*yolo resume <thread> --max-cost N/);
  });
});
