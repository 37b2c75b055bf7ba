import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeResult, deferred, parseEvents, rolesOf, runYolo, spawnYolo, threadIdFrom, waitFor } from "../helpers/cli.js";
import { BAD_ADD, call, director, GOOD_ADD, handoff } from "../helpers/director.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

const cleanups = cleanupsAfterEach("lastFirst");

const threadOf = (stdout: string) => /yolo thread (\S+)/.exec(stdout)?.[1] ?? "";

describe("yolo agent and yolo chat through the binary", () => {
  it("an agent writes a file (exit 0), a chat answers, both are threads listed with their mode, shown, and continued", async () => {
    const project = makeProject();
    const mock = await startMockOpenAI(
      director({
        dev: [call("write_file", { path: "src/add.js", content: GOOD_ADD }), handoff({ summary: "Wrote src/add.js.", files_changed: ["src/add.js"] })],
        chat: [call("list_files", {}), { content: "This is demo: a package whose tests run with node --test." }, { content: "Yes, src/add.js exports add." }],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close());
    const root = project.root;
    const opts = { cwd: root, baseURL: mock.url };

    const agent = await runYolo(["agent", "dev", "Write add(a, b) in src/add.js"], opts);
    expect(agent.exitCode, describeResult(agent)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    expect(agent.stdout).toContain("◆ dev answers:");
    expect(agent.stdout).toContain("Wrote src/add.js.");
    // An agent has no gate: it answered, and the summary says so.
    expect(agent.stdout).toMatch(/✔ agent answered \(exit 0\)/);
    const agentThread = threadOf(agent.stdout);

    const chat = await runYolo(["chat", "--json", "What is this project?"], opts);
    expect(chat.exitCode, describeResult(chat)).toBe(0);
    const events = parseEvents(chat.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", mode: "chat", nodes: ["chat"] });
    expect(events).toContainEqual(expect.objectContaining({ type: "reply", node: "chat", text: "This is demo: a package whose tests run with node --test." }));
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "passed", exitCode: 0, resumeCommand: null });
    const chatThread = threadIdFrom(chat.stdout);

    const threads = await runYolo(["threads"], { cwd: root });
    expect(threads.exitCode, describeResult(threads)).toBe(0);
    expect(threads.stdout).toMatch(/^THREAD\s+MODE\s+STATUS/);
    expect(threads.stdout).toMatch(new RegExp(`^${agentThread}\\s+agent\\s+passed\\s`, "m"));
    expect(threads.stdout).toMatch(new RegExp(`^${chatThread}\\s+chat\\s+passed\\s`, "m"));

    // A follow-up continues the chat's conversation in the same thread.
    const follow = await runYolo(["resume", chatThread, "Is there an add function now?"], opts);
    expect(follow.exitCode, describeResult(follow)).toBe(0);
    expect(follow.stdout).toContain("Yes, src/add.js exports add.");
    // The first line names the message this leg answers, not the thread's first question.
    expect(follow.stdout.split("\n")[0]).toContain("Is there an add function now?");
    expect(rolesOf(mock)).toEqual(["dev", "dev", "chat", "chat", "chat"]);

    // History says what each input brought: the first message, then the follow-up.
    const history = await runYolo(["history", "--json", chatThread], { cwd: root });
    const inputs = (JSON.parse(history.stdout) as { node: string; summary: string }[]).filter((h) => h.node === "input").map((h) => h.summary);
    expect(inputs).toEqual(["requirement: What is this project?", "message: Is there an add function now?"]);

    const show = await runYolo(["show", chatThread], { cwd: root });
    expect(show.exitCode, describeResult(show)).toBe(0);
    expect(show.stdout).toContain("Mode: chat");
    expect(show.stdout).toMatch(
      /Conversation:\n> What is this project\?\nThis is demo[^\n]*\n> Is there an add function now\?\nYes, src\/add\.js exports add\./,
    );
    expect(show.stdout).toMatch(/total: \d+ tokens .* in 3 calls/);
    const showAgent = await runYolo(["show", agentThread], { cwd: root });
    expect(showAgent.stdout).toContain("Mode: agent (agent dev)");
    expect(showAgent.stdout).toMatch(/Files changed:\n- src\/add\.js/);

    // A message cannot also answer a question.
    const refused = await runYolo(["resume", agentThread, "--answer", "x", "more"], opts);
    expect(refused.exitCode, describeResult(refused)).toBe(2);
  });

  it("a chat never starts a branch, even with `branch: true` in yolo.config.ts and a dirty tree", async () => {
    const project = makeProject({ "yolo.config.ts": 'import { defineConfig } from "yolo";\nexport default defineConfig({ branch: true });\n' });
    const mock = await startMockOpenAI(director({ chat: [{ content: "A demo package." }] }));
    cleanups.push(project.cleanup, () => mock.close());
    const git = (...args: string[]) => execFileSync("git", args, { cwd: project.root, encoding: "utf8" }).trim();
    const before = git("rev-parse", "--abbrev-ref", "HEAD");
    writeFileSync(join(project.root, "notes.txt"), "uncommitted\n");
    const chat = await runYolo(["chat", "--json", "What is this?"], { cwd: project.root, baseURL: mock.url });
    expect(chat.exitCode, describeResult(chat)).toBe(0);
    expect(git("rev-parse", "--abbrev-ref", "HEAD")).toBe(before);
    expect(git("branch", "--list", "yolo/*")).toBe("");
  });

  it("an unknown agent id exits 2 naming the known agents, before anything is created", async () => {
    const project = makeProject();
    cleanups.push(project.cleanup);
    const r = await runYolo(["agent", "nobody", "do it"], { cwd: project.root, baseURL: "http://127.0.0.1:9/v1" });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain('There is no agent "nobody". Known agents: analyst, architect, dev, pm, tea');
    expect(existsSync(join(project.root, ".yolo"))).toBe(false);
  });

  it("an agent thread killed with SIGKILL resumes with `yolo resume` and finishes its work", async () => {
    const project = makeProject();
    const held = deferred();
    const mock = await startMockOpenAI(
      director({
        dev: [
          call("read_file", { path: "package.json" }),
          // Held until after the kill: this reply (a wrong add) never lands.
          { ...call("write_file", { path: "src/add.js", content: BAD_ADD }), hold: held.promise },
          call("write_file", { path: "src/add.js", content: GOOD_ADD }),
          handoff({ summary: "Wrote add.", files_changed: ["src/add.js"] }),
        ],
      }),
    );
    cleanups.push(project.cleanup, () => mock.close(), held.release);
    const root = project.root;

    const child = spawnYolo(["agent", "dev", "--json", "Write add(a, b) in src/add.js"], { cwd: root, baseURL: mock.url });
    await waitFor(() => mock.requests.length >= 2, "dev's second request to reach the mock");
    child.kill("SIGKILL");
    expect((await child).signal).toBe("SIGKILL");
    held.release();
    const thread = threadIdFrom(String((await child).stdout));
    expect(existsSync(join(root, "src/add.js"))).toBe(false);

    const resumed = await runYolo(["resume", "--json", thread], { cwd: root, baseURL: mock.url });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD);
    const events = parseEvents(resumed.stdout);
    expect(events[0]).toMatchObject({ type: "run.started", resumed: true, mode: "agent", nodes: ["dev"] });
    expect(events).toContainEqual(expect.objectContaining({ type: "reply", node: "dev", text: "Wrote add." }));
    const threads = await runYolo(["threads", "--json"], { cwd: root });
    expect(JSON.parse(threads.stdout)).toEqual([expect.objectContaining({ id: thread, mode: "agent", status: "passed" })]);
  });
});
