import { describe, expect, it } from "vitest";
import type { ThreadPosition } from "../../../../src/engine/position.js";
import { decideInput, needsModel } from "../../../../src/engine/run/input-decision.js";

// The model check before a resume and the leg's decision read the same position: a leg that runs (a value or a
// reply) needs a model, one that only reports (done) needs none; what the decision refuses is never run.
const question = { kind: "question", question: "Floats?", askedBy: "analyst" } as never;
const values = (mode: string) => ({ mode, requirement: "r", conversation: [], gateResults: [], steps: 1 }) as never;
const positions: [string, ThreadPosition][] = [
  ["new", { kind: "new" }],
  ["finished chat", { kind: "finished", values: values("chat") }],
  ["finished run", { kind: "finished", values: values("run") }],
  ["waiting", { kind: "waiting", values: values("run"), question: "Floats?", askedBy: "analyst", node: "analyst", request: question }],
  ["answered", { kind: "answered", values: values("run"), question: "Floats?", askedBy: "analyst", node: "analyst", request: question, answer: "yes" }],
  ["pending chat", { kind: "pending", values: values("chat"), next: ["chat"] }],
  ["pending run", { kind: "pending", values: values("run"), next: ["dev"] }],
];
const inputs = [{}, { answer: "yes" }, { message: "and then?" }, { review: { action: "approve" } as const }];
const threads = { get: async () => null };
const deps = { config: {}, agents: new Map() } as never;

describe("whether a resume needs a model follows what its leg decides", () => {
  for (const [name, position] of positions) {
    it(`${name}: every input the leg accepts needs a model exactly when it runs the graph`, async () => {
      for (const resume of inputs) {
        const decision = await decideInput({ threadId: "t", resume, deps, threads }, position).catch(() => null);
        if (decision === null) continue;
        expect({ resume, needs: needsModel(position, resume) }).toEqual({ resume, needs: decision.done === undefined });
      }
    });
  }

  it("a thread with no checkpoint needs no model: the leg refuses it (unknown, or stopped before its first step)", async () => {
    expect(needsModel({ kind: "new" }, {})).toBe(false);
    await expect(decideInput({ threadId: "t", resume: {}, deps, threads }, { kind: "new" })).rejects.toThrow(/No thread t/);
  });
});
