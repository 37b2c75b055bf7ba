import { uuid5 as langGraphUuid5 } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { uuid5 } from "../../../src/store/checkpoint-view.js";

// Task ids are uuid5 of the task's path in the checkpoint's id: the reader must derive the ids LangGraph does.
describe("the reader's uuid5 is LangGraph's", () => {
  it.each([
    ['["dev","5","dev","__pregel_pull",["branch:to:dev"]]', "1f1e740e-8b4e-6b10-8004-3e7711b89bfe"],
    ['["story_dev","7","story_dev","__pregel_push","1"]', "1f1e740e-827c-6640-ffff-6d2654bfe003"],
    ["ünïcödé ✓ 𝟘", "00000000-0000-0000-0000-000000000000"],
  ])("%s in %s", (name, namespace) => {
    expect(uuid5(name, namespace)).toBe(langGraphUuid5(name, namespace));
  });
});
