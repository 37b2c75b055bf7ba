import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { loadAnswers } from "../../../src/cli/answers-file.js";
import { reviewFromFlags, takeAnswer } from "../../../src/cli/human-input.js";
import { tempDir } from "../../helpers/per-test.js";

function file(content: string): string {
  const dir = tempDir(onTestFinished, "yolo-answers-");
  writeFileSync(join(dir, "answers.yml"), content);
  return join(dir, "answers.yml");
}

const question = { kind: "question" as const, question: "Integers only, or floats too?", askedBy: "analyst" };
const approval = { kind: "approval" as const, node: "approve_pm", prompt: "Review pm's output", reviews: "pm", artifact: "stories: []" };

describe("--answers files", () => {
  it("match by node and question, once each", () => {
    const entries = loadAnswers(file("- node: analyst\n  question: floats\n  answer: Floats too\n- node: approve_pm\n  approve: true\n"));
    expect(takeAnswer(entries, approval)).toEqual({ review: { action: "approve" } });
    expect(takeAnswer(entries, { ...question, askedBy: "pm" })).toBeNull();
    expect(takeAnswer(entries, question)).toEqual({ answer: "Floats too" });
    expect(takeAnswer(entries, question)).toBeNull();
  });

  it("a review may name the agent it reviews instead of the approval step; an answer for that agent stays its own", () => {
    const entries = loadAnswers(file("- node: pm\n  answer: for pm's own question\n- node: pm\n  reject: one story per function\n"));
    expect(takeAnswer(entries, approval)).toEqual({ review: { action: "reject", reason: "one story per function" } });
    expect(takeAnswer(entries, approval)).toBeNull();
    expect(takeAnswer(entries, { ...question, askedBy: "pm" })).toEqual({ answer: "for pm's own question" });
  });

  it("do not answer a question whose text does not match", () => {
    const entries = loadAnswers(file('[{"node": "analyst", "question": "database", "answer": "sqlite"}]'));
    expect(takeAnswer(entries, question)).toBeNull();
  });

  it("report every bad entry with its index", () => {
    expect(() => loadAnswers(file("- node: analyst\n- node: pm\n  answer: a\n  approve: true\n- nod: x\n  answer: y\n"))).toThrow(
      /0: give exactly one of answer, approve, reject, edit[\s\S]*1: give exactly one[\s\S]*2: Unrecognized key/,
    );
  });

  it("refuse an empty answer, reason or edit, as if the entry were missing (an unset variable in a template)", () => {
    expect(() => loadAnswers(file('- node: analyst\n  answer: ""\n- node: approve_pm\n  reject: "  "\n- node: approve_pm\n  edit: "\\n"\n'))).toThrow(
      /0\.answer: the answer is empty[\s\S]*1\.reject: the reason is empty[\s\S]*2\.edit: the edited artifact is empty/,
    );
  });
});

describe("review flags", () => {
  it("turn into one review, and refuse several at once", () => {
    expect(reviewFromFlags({ approve: true })).toEqual({ action: "approve" });
    expect(reviewFromFlags({ reject: "too big" })).toEqual({ action: "reject", reason: "too big" });
    expect(reviewFromFlags({ edit: file("stories: []") })).toEqual({ action: "edit", content: "stories: []" });
    expect(reviewFromFlags({})).toBeNull();
    expect(() => reviewFromFlags({ approve: true, reject: "no" })).toThrow("Use one of --approve, --reject, not several.");
    expect(() => reviewFromFlags({ reject: " " })).toThrow(/needs a reason/);
  });

  it("refuse an empty --answer, --reject or --edit file: the thread keeps waiting", () => {
    expect(() => reviewFromFlags({ answer: "" })).toThrow(/--answer is empty; the thread is still waiting/);
    expect(() => reviewFromFlags({ answer: " \n\t" })).toThrow(/--answer is empty/);
    expect(() => reviewFromFlags({ reject: "" })).toThrow(/needs a reason/);
    expect(() => reviewFromFlags({ edit: file(" \n") })).toThrow(/is empty; the thread is still waiting/);
    expect(reviewFromFlags({ answer: "Floats too" })).toBeNull();
  });
});
