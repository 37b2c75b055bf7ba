import { execa } from "execa";
import { BIN, cleanEnv, type YoloResult } from "./cli.js";
import { handoff, pmDone } from "./director.js";
import { type RecordedRequest, roleOf, type ScriptedReply, textOf } from "./mock-openai.js";

/**
 * The built binary run to its end in `cwd`, for `yolo eval`: an eval runs dozens of threads, so it gets more time
 * than runYolo's 45 s. With a base URL the scripted server is the endpoint (and a key is set); without, no model. `env`
 * adds variables (a shared database's YOLO_DATABASE_URL).
 */
export async function runEvalBinary(cwd: string, args: string[], baseURL?: string, env: Record<string, string> = {}): Promise<YoloResult> {
  const r = await execa(process.execPath, [BIN, ...args], {
    cwd,
    env: cleanEnv({ baseURL, env: { ...(baseURL ? { OPENAI_API_KEY: "k" } : {}), ...env } }),
    extendEnv: false,
    stdin: "ignore",
    reject: false,
    encoding: "utf8",
    timeout: 500_000,
    killSignal: "SIGKILL",
  });
  return { exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** Whether the agent already made a tool call in this conversation (a scripted model acts once, then hands off). */
export function acted(req: RecordedRequest): boolean {
  return req.messages.some((m) => m?.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
}

/**
 * A stateless scripted model for every role of an eval's runs (runs in parallel share no queue): the analyst restates
 * the task it was given, pm and architect pass, tea says PASS; only `dev` differs between the files.
 */
export function evalResponder(dev: (req: RecordedRequest) => ScriptedReply): (req: RecordedRequest) => ScriptedReply {
  return (req) => {
    const role = roleOf(req);
    if (role === "analyst") {
      const asked = req.messages
        .filter((m) => m?.role === "user")
        .map((m) => textOf(m.content))
        .join("\n");
      return handoff({ requirements: `# Task\n${asked}`, acceptance_criteria: ["the tests pass"] });
    }
    if (role === "pm") return pmDone(false);
    if (role === "architect") return handoff({ decisions: [] });
    if (role === "dev") return dev(req);
    if (role === "tea") return handoff({ verdict: "PASS", findings: [] });
    return { status: 400, content: `no script for role ${role}` };
  };
}

/**
 * A project config whose one gate runs node's test runner itself, named as the detected `npm test` gate is ("test"):
 * for eval fixtures where npm's path is not what is tested (eval-mixed keeps the detected gates). npm's own start is
 * about 0.8 s of CPU a gate run on the CI machine, and an eval runs the suite about three times a task.
 */
export const NODE_TEST_CONFIG = 'export default { gates: [{ name: "test", command: "node --test test/", required: true }] };\n';
