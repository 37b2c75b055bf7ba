import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { launchRequest, resumeAsked } from "../../../src/cli/launch-request.js";
import { firstLeg } from "../../../src/engine/run/request.js";
import { ConfigError } from "../../../src/errors.js";

// What a command asks becomes a request of plain data: the kind of leg, the thread, what it is given and the flags.
describe("a command's request to the engine", () => {
  it("names each kind of resume from what its flags give", async () => {
    const kinds = await Promise.all(
      [
        resumeAsked("t1", undefined, {}, undefined),
        resumeAsked("t1", undefined, { answer: "yes" }, undefined),
        resumeAsked("t1", undefined, {}, { action: "approve" }),
        resumeAsked("t1", undefined, {}, { action: "reject", reason: "no" }),
        resumeAsked("t1", "and now this", {}, undefined),
      ].map(async (asked) => (await launchRequest("/nowhere", {}, asked)).kind),
    );
    expect(kinds).toEqual(["resume", "answer", "approve", "reject", "follow-up"]);
  });

  it("is JSON: it survives a round trip unchanged", async () => {
    const request = await launchRequest("/p", { json: true, maxSteps: 3 }, resumeAsked("t1", undefined, { answer: "42" }, undefined));
    expect(JSON.parse(JSON.stringify(request))).toEqual(request);
    expect(request).toMatchObject({ kind: "answer", threadId: "t1", reply: { answer: "42" }, flags: { maxSteps: 3 }, replay: null });
  });

  it("forks into a new thread that resumes from the copy, and refuses a fork that also replies", async () => {
    const request = await launchRequest("/p", { from: "3" }, resumeAsked("src", undefined, { from: "3" }, undefined));
    expect(request).toMatchObject({ kind: "fork", source: "src", from: "3" });
    expect(request.threadId).not.toBe("src");
    expect(firstLeg(request)).toEqual({ threadId: request.threadId, resume: {} });
    expect(() => resumeAsked("src", "hi", { from: "3" }, undefined)).toThrow(/--from starts a new thread/);
  });

  it("starts a new thread with its requirement and profile", async () => {
    const request = await launchRequest("/p", {}, { kind: "new", requirement: "add", profile: { mode: "chat" } });
    expect(firstLeg(request)).toEqual({ threadId: request.threadId, start: { requirement: "add", profile: { mode: "chat" } } });
  });

  it("refuses an empty --test-cmd and --record with --replay before anything is prepared", async () => {
    const asked = { kind: "new", requirement: "x" } as const;
    await expect(launchRequest("/p", { testCmd: "  " }, asked)).rejects.toThrow(ConfigError);
    await expect(launchRequest("/p", { testCmd: "  " }, asked)).rejects.toThrow("--test-cmd is empty");
    await expect(launchRequest("/p", { record: "a", replay: "b" }, asked)).rejects.toThrow("--record and --replay exclude each other");
  });

  it("carries the replay session it read, with the model it was recorded with", async () => {
    const example = fileURLToPath(new URL("../../../examples/add-numbers/", import.meta.url));
    const request = await launchRequest(example, { replay: "session.jsonl" }, { kind: "new", requirement: "x" });
    expect(request.replay?.file).toBe(join(example, "session.jsonl"));
    expect(request.replay?.exchanges.length).toBeGreaterThan(0);
    expect(typeof request.replay?.model).toBe("string");
  });
});
