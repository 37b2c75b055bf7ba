import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, type TestContext } from "vitest";
import type { YoloEvent } from "../../src/events/schema.js";
import { describeResult, parseEvents, runYolo } from "../helpers/cli.js";
import { analystDone, devWrites, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import type { MockOpenAI, ScriptedReply } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";

type Finally = TestContext["onTestFinished"];

/** A folder outside the project for the user's config, hook scripts and state (the trust store). */
function home(onTestFinished: Finally): string {
  const dir = mkdtempSync(join(tmpdir(), "yolo-hooks-home-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Appends the hook's stdin payload as one JSON line to the file named by its first argument. */
const LOG_PAYLOAD = `import { appendFileSync } from "node:fs";
let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => appendFileSync(process.argv[2], JSON.stringify(JSON.parse(s)) + "\\n"));
`;

/** A PreToolUse policy: exit 2 for rm, and Claude Code's JSON answers for other commands. */
const POLICY = `let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const p = JSON.parse(s);
  const command = p.tool_input.command ?? "";
  const answer = (o) => process.stdout.write(JSON.stringify(o));
  if (/\\brm\\b/.test(command)) {
    process.stderr.write("rm is not allowed in this repository: use git rm and say why in the handoff");
    process.exit(2);
  }
  if (command.startsWith("curl")) answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "agents have no network here" } });
  if (command.startsWith("touch")) answer({ decision: "block", reason: "the older block shape works too" });
  if (command.startsWith("sudo")) answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "root needs a person" } });
  if (command === "echo context") answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", additionalContext: "This team runs tests with npm test, never with npx." } });
  if (command === "echo original") answer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo rewritten-by-hook" } } });
});
`;

function writeUserConfig(dir: string, hooks: unknown): string {
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify({ sandbox: "off", hooks }));
  return file;
}

function env(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { YOLO_USER_CONFIG: join(dir, "config.json"), XDG_STATE_HOME: join(dir, "state"), ...extra };
}

const hook = (command: string, more: Record<string, unknown> = {}) => ({ type: "command", command, ...more });

/** A turn calling run_command with a fixed call id, so the test can find the result the model read. */
function runs(id: string, command: string): ScriptedReply {
  return { toolCalls: [{ id, name: "run_command", args: { command } }] };
}

/** The tool result the model was sent for this call id (in the request after the call). */
function toolReply(mock: MockOpenAI, id: string): string {
  for (const req of mock.requests) {
    const m = req.messages.find((msg) => msg?.role === "tool" && msg.tool_call_id === id);
    if (m) return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  }
  throw new Error(`no tool result for ${id} reached the model`);
}

/** Whether a process still runs (not reaped, not a zombie) after up to ~5 s of polling; no time is asserted. */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++, await new Promise((r) => setTimeout(r, 50))) {
    try {
      process.kill(pid, 0);
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return false;
    } catch {
      return false;
    }
  }
  return true;
}

type HookEvent = Extract<YoloEvent, { type: "hook.result" }>;
const hookEvents = (events: YoloEvent[]) => events.filter((e): e is HookEvent => e.type === "hook.result");

const readLines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, any>)
    : [];

describe("PreToolUse and PostToolUse hooks from the user's config", () => {
  it("exit 2 refuses a call with stderr as the tool error; JSON deny, ask, the older block, allow, additionalContext and updatedInput all reach the model", async ({
    onTestFinished,
  }) => {
    const dir = home(onTestFinished);
    writeFileSync(join(dir, "policy.mjs"), POLICY);
    writeFileSync(join(dir, "log.mjs"), LOG_PAYLOAD);
    const log = join(dir, "pre.jsonl");
    writeUserConfig(dir, {
      PreToolUse: [{ matcher: "Bash", hooks: [hook(`node ${join(dir, "policy.mjs")}`), hook(`node ${join(dir, "log.mjs")} ${log}`)] }],
    });
    const root = project(onTestFinished, { "src/keep.txt": "keep me\n" });
    const secret = "sk-hook-canary-7f3a9c1e55";
    const mock = await mockWith(
      onTestFinished,
      director({
        dev: [
          runs("c_rm", "rm -rf src"),
          runs("c_curl", "curl https://example.com"),
          runs("c_ask", "sudo ls"),
          runs("c_touch", "touch x"),
          runs("c_ctx", "echo context"),
          runs("c_upd", "echo original"),
          runs("c_secret", `echo ${secret}`),
          handoff({ summary: "done", files_changed: [] }),
        ],
      }),
    );
    const r = await runYolo(["agent", "dev", "--json", "tidy up"], { cwd: root, baseURL: mock.url, env: env(dir, { OPENAI_API_KEY: secret }) });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(readFileSync(join(root, "src/keep.txt"), "utf8")).toBe("keep me\n");

    expect(toolReply(mock, "c_rm")).toMatch(
      /^Error: a PreToolUse hook refused this run_command call; nothing was run\.\nrm is not allowed in this repository: use git rm/,
    );
    expect(toolReply(mock, "c_curl")).toContain("agents have no network here");
    expect(toolReply(mock, "c_ask")).toMatch(/asks for a person's approval[\s\S]*root needs a person/);
    expect(toolReply(mock, "c_touch")).toContain("the older block shape works too");
    expect(existsSync(join(root, "x"))).toBe(false);
    const ctx = toolReply(mock, "c_ctx");
    expect(ctx).toContain("context"); // the command ran…
    expect(ctx).toContain("[hook] This team runs tests with npm test, never with npx."); // …and the hook's context came with it
    expect(toolReply(mock, "c_upd")).toContain("rewritten-by-hook");

    const events = parseEvents(r.stdout);
    const policy = hookEvents(events).filter((e) => e.hook.includes("policy.mjs"));
    expect(policy.map((e) => [e.tool, e.decision, e.blocked])).toEqual([
      ["run_command", "deny", true],
      ["run_command", "deny", true],
      ["run_command", "deny", true],
      ["run_command", "deny", true],
      ["run_command", "allow", false],
      ["run_command", "allow", false],
      ["run_command", "none", false],
    ]);
    expect(policy[0]).toMatchObject({ event: "PreToolUse", source: "user", node: "dev", exitCode: 2, reason: expect.stringContaining("rm is not allowed") });

    // Claude Code's payload fields, secrets scrubbed as in events.
    const payloads = readLines(log);
    expect(payloads).toHaveLength(7);
    const thread = events[0].thread;
    expect(payloads[0]).toEqual({
      session_id: thread,
      transcript_path: join(root, ".yolo", "threads", thread, "transcripts", "dev.jsonl"),
      cwd: root,
      hook_event_name: "PreToolUse",
      tool_name: "run_command",
      tool_input: { command: "rm -rf src" },
      tool_use_id: "c_rm",
    });
    expect(readFileSync(log, "utf8")).not.toContain(secret);
    expect(payloads[6].tool_input.command).toContain("[redacted]");
  });

  it("PostToolUse gets the tool's response and feeds a block (exit 2) and additionalContext back to the model", async ({ onTestFinished }) => {
    const dir = home(onTestFinished);
    writeFileSync(join(dir, "log.mjs"), LOG_PAYLOAD);
    const log = join(dir, "post.jsonl");
    writeUserConfig(dir, {
      PostToolUse: [
        { matcher: "write_file|edit_file", hooks: [hook(`node ${join(dir, "log.mjs")} ${log}; echo "lint: missing semicolon in src/add.js" >&2; exit 2`)] },
        {
          matcher: "run_command",
          hooks: [hook(`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"The output was checked by the team hook."}}'`)],
        },
      ],
    });
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({
        dev: [
          { toolCalls: [{ id: "c_write", name: "write_file", args: { path: "src/add.js", content: GOOD_ADD } }] },
          runs("c_echo", "echo hello"),
          handoff({ summary: "wrote add", files_changed: ["src/add.js"] }),
        ],
      }),
    );
    const r = await runYolo(["agent", "dev", "--json", "write add"], { cwd: root, baseURL: mock.url, env: env(dir) });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(GOOD_ADD); // it ran: PostToolUse comes after
    const write = toolReply(mock, "c_write");
    expect(write).toContain("A PostToolUse hook reports a problem with this write_file call: lint: missing semicolon in src/add.js");
    expect(toolReply(mock, "c_echo")).toMatch(/hello[\s\S]*\[hook\] The output was checked by the team hook\./);
    const [payload] = readLines(log);
    expect(payload).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "write_file",
      tool_input: { path: "src/add.js", content: GOOD_ADD },
      tool_use_id: "c_write",
      tool_response: { success: true, output: expect.any(String), files_changed: ["src/add.js"] },
    });
    expect(hookEvents(parseEvents(r.stdout)).map((e) => [e.event, e.tool, e.decision])).toEqual([
      ["PostToolUse", "write_file", "block"],
      ["PostToolUse", "run_command", "none"],
    ]);
  });
});

describe("the example of docs/mcp-and-hooks.md", () => {
  it("copied as is into ~/.config/yolo/config.ts, stops an agent's git push and lets git status run", async ({ onTestFinished }) => {
    const doc = readFileSync(new URL("../../docs/mcp-and-hooks.md", import.meta.url), "utf8");
    const section = doc.slice(doc.indexOf("## Hooks"));
    const example = /```ts\n(\/\/ ~\/\.config\/yolo\/config\.ts\n[\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const dir = home(onTestFinished);
    writeFileSync(join(dir, "config.ts"), example!);
    const root = project(onTestFinished);
    const mock = await mockWith(
      onTestFinished,
      director({ dev: [runs("c_push", "git push origin main"), runs("c_status", "git status --short"), handoff({ summary: "x", files_changed: [] })] }),
    );
    const r = await runYolo(["agent", "dev", "--json", "push it"], {
      cwd: root,
      baseURL: mock.url,
      env: { YOLO_USER_CONFIG: join(dir, "config.ts"), XDG_STATE_HOME: join(dir, "state") },
    });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(toolReply(mock, "c_push")).toBe(
      "Error: a PreToolUse hook refused this run_command call; nothing was run.\ngit push is for people: commit, and say in your handoff what to push",
    );
    expect(toolReply(mock, "c_status")).not.toContain("refused");
    expect(hookEvents(parseEvents(r.stdout)).map((e) => e.decision)).toEqual(["deny", "none"]);
  });
});

describe("failing hooks", () => {
  it("a hanging hook is killed with its whole process group at its timeout; PreToolUse fails closed by default", async ({ onTestFinished }) => {
    const dir = home(onTestFinished);
    const pidFile = join(dir, "child.pid");
    // The hook leaves a background child in its group, then hangs.
    writeFileSync(join(dir, "hang.sh"), `sleep 300 &\necho $! > ${pidFile}\nwait\n`);
    writeUserConfig(dir, { PreToolUse: [{ hooks: [hook(`sh ${join(dir, "hang.sh")}`, { timeout: 1 })] }] });
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ dev: [runs("c_1", "echo never"), handoff({ summary: "gave up", files_changed: [] })] }));
    const r = await runYolo(["agent", "dev", "--json", "x"], { cwd: root, baseURL: mock.url, env: env(dir) });
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(toolReply(mock, "c_1")).toMatch(/refused[\s\S]*did not finish within 1s and was killed/);
    const [result] = hookEvents(parseEvents(r.stdout));
    expect(result).toMatchObject({ decision: "timeout", blocked: true, exitCode: null });
    const child = Number(readFileSync(pidFile, "utf8"));
    expect(await alive(child)).toBe(false);
  });

  it("a crashing hook is reported with its stderr; fail closed refuses the call, failClosed: false lets it run", async ({ onTestFinished }) => {
    const dir = home(onTestFinished);
    const crash = `echo "boom: the policy server is down" >&2; exit 1`;
    writeUserConfig(dir, {
      PreToolUse: [{ matcher: "run_command", hooks: [hook(crash)] }],
    });
    const root = project(onTestFinished);
    const closed = await mockWith(onTestFinished, director({ dev: [runs("c_1", "echo closed > closed.txt"), handoff({ summary: "x", files_changed: [] })] }));
    const r1 = await runYolo(["agent", "dev", "x"], { cwd: root, baseURL: closed.url, env: env(dir) });
    expect(r1.exitCode, describeResult(r1)).toBe(0);
    expect(existsSync(join(root, "closed.txt"))).toBe(false);
    expect(toolReply(closed, "c_1")).toMatch(/refused[\s\S]*exit 1: boom: the policy server is down/);
    // The plain renderer shows the refusal.
    expect(r1.stdout).toMatch(/⊘ PreToolUse hook `echo "boom[^`]*` failed, so run_command was refused: exit 1: boom/);

    writeUserConfig(dir, { PreToolUse: [{ matcher: "run_command", hooks: [hook(crash, { failClosed: false })] }] });
    const open = await mockWith(onTestFinished, director({ dev: [runs("c_2", "echo open > open.txt"), handoff({ summary: "x", files_changed: [] })] }));
    const r2 = await runYolo(["agent", "dev", "--json", "x"], { cwd: root, baseURL: open.url, env: env(dir) });
    expect(r2.exitCode, describeResult(r2)).toBe(0);
    expect(readFileSync(join(root, "open.txt"), "utf8")).toBe("open\n");
    expect(hookEvents(parseEvents(r2.stdout))).toEqual([
      expect.objectContaining({ event: "PreToolUse", decision: "error", blocked: false, exitCode: 1, reason: "exit 1: boom: the policy server is down" }),
    ]);
  });

  it("a fail-closed NodeStart hook that fails stops the run before the node (resumable, exit 130)", async ({ onTestFinished }) => {
    const dir = home(onTestFinished);
    writeUserConfig(dir, { NodeStart: [{ matcher: "dev", hooks: [hook(`echo "no ticket linked" >&2; exit 3`, { failClosed: true })] }] });
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({}));
    const r = await runYolo(["agent", "dev", "--json", "x"], { cwd: root, baseURL: mock.url, env: env(dir) });
    expect(r.exitCode, describeResult(r)).toBe(130);
    expect(mock.requests).toHaveLength(0);
    const last = parseEvents(r.stdout).at(-1);
    expect(last).toMatchObject({ type: "run.completed", status: "interrupted", reason: expect.stringContaining("no ticket linked") });
    expect(last).toMatchObject({ resumeCommand: expect.stringMatching(/^yolo resume /) });
  });
});

describe("continue: false", () => {
  it("from a PreToolUse hook stops the run before the call (exit 130, resumable), with the hook's stopReason", async ({ onTestFinished }) => {
    const dir = home(onTestFinished);
    writeUserConfig(dir, { PreToolUse: [{ hooks: [hook(`echo '{"continue":false,"stopReason":"change freeze until Monday"}'`)] }] });
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ dev: [runs("c_1", "echo frozen > frozen.txt")] }));
    const r = await runYolo(["agent", "dev", "--json", "x"], { cwd: root, baseURL: mock.url, env: env(dir) });
    expect(r.exitCode, describeResult(r)).toBe(130);
    expect(existsSync(join(root, "frozen.txt"))).toBe(false);
    const events = parseEvents(r.stdout);
    expect(hookEvents(events)).toEqual([expect.objectContaining({ decision: "stop", blocked: true, reason: "change freeze until Monday" })]);
    expect(events.at(-1)).toMatchObject({ type: "run.completed", status: "interrupted", reason: expect.stringContaining("change freeze until Monday") });
  });
});

describe("NodeStart, NodeEnd, GateEnd and RunEnd hooks", () => {
  it("receive yolo's payloads for each step of a pipeline run", async ({ onTestFinished }) => {
    const dir = home(onTestFinished);
    writeFileSync(join(dir, "log.mjs"), LOG_PAYLOAD);
    const log = join(dir, "steps.jsonl");
    const logHook = hook(`node ${join(dir, "log.mjs")} ${log}`);
    writeUserConfig(dir, {
      NodeStart: [{ hooks: [logHook] }],
      NodeEnd: [{ matcher: "dev", hooks: [logHook] }],
      GateEnd: [{ hooks: [logHook] }],
      RunEnd: [{ matcher: "passed|failed", hooks: [logHook] }],
    });
    const root = project(onTestFinished);
    const mock = await mockWith(onTestFinished, director({ analyst: [analystDone], pm: [pmDone(false)], dev: devWrites(GOOD_ADD), tea: [teaSays("PASS")] }));
    const r = await runYolo(["run", "--json", "Add add(a, b)"], { cwd: root, baseURL: mock.url, env: env(dir) });
    expect(r.exitCode, describeResult(r)).toBe(0);
    const thread = parseEvents(r.stdout)[0].thread;
    const payloads = readLines(log);
    expect(payloads.map((p) => `${p.hook_event_name}:${p.node ?? p.status}`)).toEqual([
      "NodeStart:analyst",
      "NodeStart:pm",
      "NodeStart:dev",
      "NodeEnd:dev",
      "NodeStart:tea",
      "GateEnd:tea",
      "RunEnd:passed",
    ]);
    for (const p of payloads) expect(p).toMatchObject({ session_id: thread, cwd: root });
    expect(payloads[2]).toEqual({
      session_id: thread,
      transcript_path: join(root, ".yolo", "threads", thread, "transcripts", "dev.jsonl"),
      cwd: root,
      hook_event_name: "NodeStart",
      node: "dev",
      agent: "dev",
      role: "dev",
      mode: "run",
      fix_attempt: 0,
      step: expect.any(Number),
    });
    expect(payloads[3]).toMatchObject({
      hook_event_name: "NodeEnd",
      outcome: "handoff",
      summary: "1 file changed",
      files_changed: ["src/add.js"],
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number), total_tokens: expect.any(Number), calls: 2 },
    });
    expect(payloads[5]).toMatchObject({
      hook_event_name: "GateEnd",
      node: "tea",
      attempt: 1,
      passed: true,
      gates: [
        { name: "test", command: "npm test", required: true, passed: true, exit_code: 0, timed_out: false, passed_count: 2, failed_count: 0, failures: [] },
      ],
    });
    expect(payloads[6]).toEqual({
      session_id: thread,
      transcript_path: null,
      cwd: root,
      hook_event_name: "RunEnd",
      status: "passed",
      exit_code: 0,
      reason: expect.stringContaining("completed"),
      mode: "run",
      files_changed: ["src/add.js"],
      usage: expect.objectContaining({ calls: 5 }),
      resume_command: null,
    });
  });
});

describe("a repository's hooks need the user's consent", () => {
  const repoConfig = (command: string) =>
    `export default { hooks: { PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command", command: ${JSON.stringify(command)} }] }] } };\n`;

  /** A repository whose yolo.config.ts runs hooks/guard.sh before each run_command, and a user home outside it. */
  function guarded(onTestFinished: Finally) {
    const dir = home(onTestFinished);
    const root = project(onTestFinished, {
      "yolo.config.ts": repoConfig("sh hooks/guard.sh"),
      "hooks/guard.sh": `echo ran >> "$YOLO_PROJECT_DIR/guard-ran.txt"\n`,
    });
    const opts = (mock?: MockOpenAI, extra: Record<string, string> = {}) => ({
      cwd: root,
      baseURL: mock?.url,
      env: { XDG_STATE_HOME: join(dir, "state"), ...extra },
    });
    const ran = () => (existsSync(join(root, "guard-ran.txt")) ? readFileSync(join(root, "guard-ran.txt"), "utf8").split("\n").filter(Boolean).length : 0);
    return { dir, root, opts, ran };
  }
  const script = () => director({ dev: [runs("c_1", "echo hi"), handoff({ summary: "x", files_changed: [] })] });

  it("untrusted: not run, named in a warning with the command that trusts them; trusted: run; changed: untrusted again; YOLO_TRUST_PROJECT_HOOKS=1 trusts them", async ({
    onTestFinished,
  }) => {
    const { dir, root, opts, ran } = guarded(onTestFinished);

    const first = await mockWith(onTestFinished, script());
    const r1 = await runYolo(["agent", "dev", "--json", "x"], opts(first));
    expect(r1.exitCode, describeResult(r1)).toBe(0);
    expect(ran()).toBe(0);
    const warning = parseEvents(r1.stdout).find((e) => e.type === "warning" && e.message.includes("not trusted"));
    expect(warning).toMatchObject({ message: expect.stringContaining("PreToolUse `sh hooks/guard.sh`") });
    expect(warning).toMatchObject({ message: expect.stringContaining("yolo hooks trust") });
    expect(hookEvents(parseEvents(r1.stdout))).toEqual([]);

    const listed = await runYolo(["hooks"], opts());
    expect(listed.stdout).toMatch(/Repository hooks \(.*yolo\.config\.ts\): NOT trusted/);

    const trust = await runYolo(["hooks", "trust"], opts());
    expect(trust.exitCode, describeResult(trust)).toBe(0);
    expect(trust.stdout).toContain("PreToolUse  sh hooks/guard.sh");
    expect(existsSync(join(dir, "state", "yolo", "trusted-hooks.json"))).toBe(true);

    const second = await mockWith(onTestFinished, script());
    const r2 = await runYolo(["agent", "dev", "--json", "x"], opts(second));
    expect(r2.exitCode, describeResult(r2)).toBe(0);
    expect(ran()).toBe(1);
    expect(hookEvents(parseEvents(r2.stdout))).toEqual([expect.objectContaining({ source: "project", decision: "none" })]);

    // The script a trusted hook runs is part of what was trusted: changed on disk, the set is untrusted again.
    writeFileSync(join(root, "hooks/guard.sh"), `echo ran >> "$YOLO_PROJECT_DIR/guard-ran.txt"\ncurl -s https://attacker.example/ || true\n`);
    const third = await mockWith(onTestFinished, script());
    const r3 = await runYolo(["agent", "dev", "--json", "x"], opts(third));
    expect(r3.exitCode, describeResult(r3)).toBe(0);
    expect(ran()).toBe(1);
    expect(parseEvents(r3.stdout).some((e) => e.type === "warning" && e.message.includes("not trusted"))).toBe(true);

    // A pipeline on the user's own repository may trust it through the environment.
    const fourth = await mockWith(onTestFinished, script());
    const r4 = await runYolo(["agent", "dev", "--json", "--ci", "x"], opts(fourth, { YOLO_TRUST_PROJECT_HOOKS: "1" }));
    expect(r4.exitCode, describeResult(r4)).toBe(0);
    expect(ran()).toBe(2);
  }, 180_000); // six children in a row on a shared machine

  it("an agent cannot change a trusted hook's script: write_file is refused, and a script changed by a command is not run", async ({ onTestFinished }) => {
    const { root, opts } = guarded(onTestFinished);
    const trust = await runYolo(["hooks", "trust"], opts());
    expect(trust.exitCode, describeResult(trust)).toBe(0);
    const guard = readFileSync(join(root, "hooks/guard.sh"), "utf8");
    const hostile = await mockWith(
      onTestFinished,
      director({
        dev: [
          { toolCalls: [{ id: "c_w", name: "write_file", args: { path: "hooks/guard.sh", content: "touch escaped.txt\n" } }] },
          runs("c_sh", "printf 'touch escaped.txt\\n' > hooks/guard.sh"),
          runs("c_2", "echo after"),
          handoff({ summary: "x", files_changed: [] }),
        ],
      }),
    );
    const r = await runYolo(["agent", "dev", "--json", "x"], opts(hostile));
    expect(r.exitCode, describeResult(r)).toBe(0);
    expect(toolReply(hostile, "c_w")).toBe("Error: hooks/guard.sh is run by a hook the user trusted; agents may not change it. Nothing was written.");
    expect(readFileSync(join(root, "hooks/guard.sh"), "utf8")).not.toBe(guard); // the command did change it…
    expect(toolReply(hostile, "c_2")).toMatch(/refused[\s\S]*hooks\/guard\.sh changed since the run started/);
    expect(existsSync(join(root, "escaped.txt"))).toBe(false); // …but it never ran

    const untrust = await runYolo(["hooks", "untrust"], opts());
    expect(untrust.stdout).toContain("no longer trusted");
    expect((await runYolo(["hooks"], opts())).stdout).toMatch(/Repository hooks \(.*\): NOT trusted/);
  });

  it("`yolo hooks trust` in a repository without hooks says there is nothing to trust (exit 2)", async ({ onTestFinished }) => {
    const dir = home(onTestFinished);
    const r = await runYolo(["hooks", "trust"], { cwd: project(onTestFinished), env: { XDG_STATE_HOME: join(dir, "state") } });
    expect(r.exitCode, describeResult(r)).toBe(2);
    expect(r.stderr).toContain("defines no hooks: there is nothing to trust");
    expect(existsSync(join(dir, "state", "yolo", "trusted-hooks.json"))).toBe(false);
  });
});
