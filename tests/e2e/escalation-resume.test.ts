import { resolveConfig } from "../../src/config/resolve.js";
import { openSession } from "../../src/engine/session.js";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, parseEvents, rolesOf, runYolo, threadIdFrom } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { roleOf, startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

const REQ = "Add an add(a, b) function to src/add.js";
const QUESTION = "Integers only, or floats too?";

describe("a thread waiting on a question is answered with `yolo resume --answer`", () => {
  it("exits 3 with the question, resumes with the answer to a pass, then refuses a second answer", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        analyst: [handoff({ escalate_to_human: true, question: QUESTION }), analystDone],
        pm: [pmDone(false)],
        dev: devWrites(GOOD_ADD),
        tea: [teaSays("PASS")],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const root = project.root;

    const first = await runYolo(["run", "--json", REQ], { cwd: root, baseURL: mock.url });
    expect(first.exitCode, describeResult(first)).toBe(3);
    const thread = threadIdFrom(first.stdout);
    const events = parseEvents(first.stdout);
    const resumeCommand = `yolo resume ${thread} --answer "<your answer>"`;
    expect(events.find((e) => e.type === "interrupt")).toMatchObject({ askedBy: "analyst", question: QUESTION, resumeCommand });
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "waiting", exitCode: 3, resumeCommand });

    // Resuming without an answer leaves it waiting and says so again; no model call is made.
    const requestsBefore = mock.requests.length;
    const unanswered = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(unanswered.exitCode, describeResult(unanswered)).toBe(3);
    expect(unanswered.stdout).toContain(QUESTION);
    expect(mock.requests.length).toBe(requestsBefore);

    // An empty answer (`--answer "$ANSWER"` with the variable unset) is refused before anything runs; still waiting.
    for (const empty of ["", "  \n"]) {
      const blank = await runYolo(["resume", "--json", thread, "--answer", empty], { cwd: root, baseURL: mock.url });
      expect(blank.exitCode, describeResult(blank)).toBe(2);
      expect(blank.stderr).toContain("--answer is empty; the thread is still waiting.");
      expect(blank.stdout).toBe("");
    }
    const answersFile = join(root, ".answers.yml");
    writeFileSync(answersFile, '- node: analyst\n  answer: ""\n');
    const blankFile = await runYolo(["resume", "--json", thread, "--answers", answersFile], { cwd: root, baseURL: mock.url });
    expect(blankFile.exitCode, describeResult(blankFile)).toBe(2);
    expect(blankFile.stderr).toContain("0.answer: the answer is empty");
    expect(mock.requests.length).toBe(requestsBefore);
    const stillWaiting = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(stillWaiting.exitCode, describeResult(stillWaiting)).toBe(3);
    expect(stillWaiting.stdout).toContain(QUESTION);

    const second = await runYolo(["resume", "--json", thread, "--answer", "Floats too"], { cwd: root, baseURL: mock.url });
    expect(second.exitCode, describeResult(second)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(rolesOf(mock)).toEqual(["analyst", "analyst", "pm", "dev", "dev", "tea"]);
    const analystAgain = mock.requests.filter((r) => roleOf(r) === "analyst")[1];
    expect(JSON.stringify(analystAgain.messages)).toContain("Floats too");
    expect(JSON.stringify(analystAgain.messages)).toContain(QUESTION);

    const late = await runYolo(["resume", thread, "--answer", "x"], { cwd: root, baseURL: mock.url });
    expect(late.exitCode, describeResult(late)).toBe(2);
    expect(late.stderr).toContain(`Thread ${thread} has finished; it is not waiting for an answer.`);
    expect(late.stdout).toBe("");
    expect(mock.requests.length).toBe(6);
  });

  it("`yolo resume nosuch` exits 2 without creating anything, and points at `yolo threads` once threads exist", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(director({}));
    cleanups.push(project.cleanup, () => mock.close());

    const fresh = await runYolo(["resume", "nosuch"], { cwd: project.root, baseURL: mock.url });
    expect(fresh.exitCode, describeResult(fresh)).toBe(2);
    expect(fresh.stderr).toMatch(/No thread nosuch: this project has no yolo database yet/);
    expect(fresh.stdout).toBe("");
    expect(existsSync(join(project.root, ".yolo"))).toBe(false);

    // With a database (another thread's), an unknown id points at the thread list.
    const config = resolveConfig({ root: project.root, fileConfig: {}, file: null, env: {} });
    await (await openSession(config)).close();
    const unknown = await runYolo(["resume", "nosuch"], { cwd: project.root, baseURL: mock.url });
    expect(unknown.exitCode, describeResult(unknown)).toBe(2);
    expect(unknown.stderr).toMatch(/nosuch/);
    expect(unknown.stderr).toContain("yolo threads");
    expect(mock.requests).toHaveLength(0);
  });
});
