import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { EventBody } from "../../../src/events/schema.js";
import { execHook } from "../../../src/hooks/exec-hook.js";
import { HookRunner, registerHooks } from "../../../src/hooks/hooks.js";
import type { HooksConfig } from "../../../src/config/hooks-schema.js";
import { registerSecrets } from "../../../src/secrets/scrub.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "yolo-hookrun-"));
  dirs.push(d);
  return d;
}

function runner(root: string, hooks: HooksConfig) {
  const events: EventBody[] = [];
  const r = new HookRunner(registerHooks(hooks, "user", root), { root, env: { PATH: process.env.PATH } });
  return { r, events, scope: { emit: (e: EventBody) => events.push(e), threadId: "t1", node: "dev" } };
}

describe("what the model controls reaches a hook only as JSON on stdin", () => {
  it("shell syntax in a tool call's arguments is never run: the hook reads it as data", async () => {
    const root = tmp();
    const { r, scope } = runner(root, { PreToolUse: [{ hooks: [{ type: "command", command: "cat > payload.json" }] }] });
    const hostile = `"; touch pwned; echo "$(touch pwned2)\`touch pwned3\``;
    const out = await r.run("PreToolUse", "run_command", { tool_name: "run_command", tool_input: { command: hostile } }, scope);
    expect(out.blocked).toEqual([]);
    for (const f of ["pwned", "pwned2", "pwned3"]) expect(existsSync(join(root, f))).toBe(false);
    expect(JSON.parse(readFileSync(join(root, "payload.json"), "utf8")).tool_input.command).toBe(hostile);
  });

  it("a payload far larger than a pipe, to a hook that never reads stdin, neither fails the hook nor hangs", async () => {
    const root = tmp();
    const { r, scope, events } = runner(root, { PostToolUse: [{ hooks: [{ type: "command", command: "exit 0" }] }] });
    const out = await r.run("PostToolUse", "write_file", { tool_input: { content: "x".repeat(4_000_000) } }, scope);
    expect(out).toEqual({ blocked: [], contexts: [], updatedInput: null, stop: null });
    expect(events).toEqual([expect.objectContaining({ type: "hook.result", decision: "none", exitCode: 0 })]);
  });

  it("a secret in a tool call's arguments or in the hook's command is scrubbed from the payload and the event", async () => {
    const root = tmp();
    const secret = "sk-runner-canary-93be1d7";
    registerSecrets([secret]);
    const { r, scope, events } = runner(root, { PreToolUse: [{ hooks: [{ type: "command", command: `cat > payload.json; echo ${secret} >&2; exit 2` }] }] });
    const out = await r.run("PreToolUse", "run_command", { tool_input: { command: `curl -H "Authorization: ${secret}"` } }, scope);
    expect(readFileSync(join(root, "payload.json"), "utf8")).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(secret);
    // What the hook printed reaches the model as the refusal: scrubbed too.
    expect(out.blocked).toEqual(["[redacted]"]);
  });

  it("a hook printing its environment (it has the user's, secrets included) never hands a secret to the model", async () => {
    const root = tmp();
    const secret = "sk-env-canary-41d0a9c2";
    registerSecrets([secret]);
    const events: EventBody[] = [];
    const r = new HookRunner(
      registerHooks(
        {
          PostToolUse: [
            {
              hooks: [
                {
                  type: "command",
                  command: `echo "{\\"decision\\":\\"block\\",\\"reason\\":\\"$API_TOKEN\\",\\"hookSpecificOutput\\":{\\"additionalContext\\":\\"$API_TOKEN\\"}}"`,
                },
              ],
            },
          ],
        },
        "user",
        root,
      ),
      { root, env: { PATH: process.env.PATH, API_TOKEN: secret } },
    );
    const out = await r.run("PostToolUse", "run_command", {}, { emit: (e) => events.push(e), threadId: "t" });
    expect(out.blocked).toEqual(["[redacted]"]);
    expect(out.contexts).toEqual(["[redacted]"]);
    expect(JSON.stringify(events)).not.toContain(secret);
  });
});

describe("running a hook", () => {
  it("keeps at most 64 KiB of a flood of output", async () => {
    const result = await execHook("head -c 5000000 /dev/zero | tr '\\0' a", "", { cwd: tmp(), env: { PATH: process.env.PATH }, timeoutS: 30 });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.length).toBe(64 * 1024);
  });

  it("an abort (the run cancelled) kills the hook and its children", async () => {
    const root = tmp();
    const controller = new AbortController();
    const pending = execHook("sleep 300 & echo $! > child.pid; wait", "", {
      cwd: root,
      env: { PATH: process.env.PATH },
      timeoutS: 300,
      signal: controller.signal,
    });
    while (!existsSync(join(root, "child.pid")) || readFileSync(join(root, "child.pid"), "utf8").trim() === "") await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ aborted: true, exitCode: null });
    const pid = Number(readFileSync(join(root, "child.pid"), "utf8"));
    expect(await alive(pid)).toBe(false);
  });

  it("a shell that cannot start is a spawn error, not a crash", async () => {
    const result = await execHook("true", "", { cwd: join(tmp(), "missing-dir"), env: {}, timeoutS: 5 });
    expect(result.spawnError).toMatch(/ENOENT/);
  });

  it("the same command under two matching groups runs once", async () => {
    const root = tmp();
    const cmd = { type: "command" as const, command: "echo x >> count.txt" };
    const { r, scope } = runner(root, {
      PreToolUse: [
        { matcher: "Bash", hooks: [cmd] },
        { matcher: "run_command", hooks: [cmd] },
      ],
    });
    await r.run("PreToolUse", "run_command", {}, scope);
    expect(readFileSync(join(root, "count.txt"), "utf8")).toBe("x\n");
  });
});

/** Whether the process still runs after up to ~5 s (a signal is delivered and reaped asynchronously); no time is asserted. */
async function alive(pid: number): Promise<boolean> {
  // Reaped, or a zombie waiting for its reaper: either way nothing runs.
  for (let i = 0; i < 100; i++, await new Promise((r) => setTimeout(r, 50))) {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    try {
      if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return false;
    } catch {
      return false;
    }
  }
  return true;
}

describe("a hook yolo cannot pin is not run", () => {
  it("a script whose imports go deeper than yolo follows is refused before it runs", async () => {
    const root = tmp();
    for (let i = 0; i < 6; i++) writeFileSync(join(root, `lib${i}.js`), `require("./lib${i + 1}.js");\n`);
    writeFileSync(join(root, "lib6.js"), "require('node:fs').writeFileSync('ran.txt', 'x');\n");
    const { r, scope } = runner(root, { PreToolUse: [{ hooks: [{ type: "command", command: "node lib0.js", failClosed: true }] }] });
    const out = await r.run("PreToolUse", "run_command", {}, scope);
    expect(existsSync(join(root, "ran.txt"))).toBe(false);
    expect(out.blocked).toHaveLength(1);
    expect(JSON.stringify(out)).toMatch(/not run: yolo cannot pin every project file it runs \(.*lib4\.js: its imports are nested more than 4 deep\)/);
  });
});
