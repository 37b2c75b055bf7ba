// Total prompt tokens of a reference run (analyst, pm, architect, dev, tea; two fix attempts) with yolo's
// middleware, against a naive baseline that sends the whole run's history to every call. The model is scripted
// and in-process; tokens are counted with the middleware's own estimate (about four characters a token) over the
// messages each call really received, so both figures use one measure.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../dist/config/resolve.js";
import { launchLoaded } from "./loaded-launch.mjs";
import { openSession } from "../dist/engine/session.js";
import { loadWorkflowAgents } from "../dist/agents/workflow-agents.js";
import { estimateTokens } from "../dist/middleware/tokens.js";

const ADD = "export function add(a, b) {\n  return a + b;\n}\n";
const call = (name, args) => ({ name, args });

/** Each agent's turns, in order; dev and tea run three times (the first two tea verdicts block). */
function script() {
  const devAttempt = (i) => [
    [call("list_files", { path: "." })],
    [call("read_file", { path: "src/lib.js" })],
    [call("read_file", { path: "README.md" })],
    [call("write_file", { path: "src/add.js", content: `${ADD}// attempt ${i}\n` })],
    [call("run_command", { command: "node -e \"console.log('ok')\"" })],
    [call("handoff", { summary: `attempt ${i}`, files_changed: ["src/add.js"] })],
  ];
  const teaRun = (verdict) => [
    [call("read_file", { path: "src/add.js" })],
    [call("handoff", { verdict, findings: verdict === "PASS" ? [] : ["needs another pass"] })],
  ];
  return {
    analyst: [
      [call("read_file", { path: "README.md" })],
      [call("handoff", { requirements: "# Add\nProvide add(a, b).", acceptance_criteria: ["add(2, 3) is 5", "add(-1, 1) is 0"] })],
    ],
    pm: [
      [
        call("handoff", {
          stories: [{ title: "Add", as_a: "dev", i_want: "add(a, b)", so_that: "I can sum", acceptance_criteria: ["add(2, 3) is 5"] }],
          needs_architecture: true,
        }),
      ],
    ],
    architect: [
      [call("list_files", { path: "src" })],
      [call("handoff", { decisions: [{ title: "Module", decision: "src/add.js exports add", rationale: "ESM project" }] })],
    ],
    dev: [...devAttempt(1), ...devAttempt(2), ...devAttempt(3)],
    tea: [...teaRun("FAIL"), ...teaRun("FAIL"), ...teaRun("PASS")],
  };
}

/** A scripted model that records what each call received. */
class ScriptedModel extends BaseChatModel {
  constructor(queues, calls) {
    super({});
    this.queues = queues;
    this.calls = calls;
  }
  _llmType() {
    return "bench-scripted";
  }
  bindTools() {
    return this;
  }
  async _generate(messages) {
    const role = /You are the (\w+) agent/.exec(String(messages[0].content))?.[1] ?? "summarizer";
    const turn = this.queues[role]?.shift() ?? [];
    this.calls.push({ role, tokens: estimateTokens(messages), first: messages.every((m) => m.getType() !== "ai") });
    const message = new AIMessage({
      content: role === "summarizer" ? "Summary of earlier turns." : "",
      tool_calls: turn.map((c, i) => ({ id: `c${this.calls.length}_${i}`, name: c.name, args: c.args, type: "tool_call" })),
    });
    return { generations: [{ text: "", message }] };
  }
}

function project() {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-tokens-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench", type: "module", scripts: { test: "node --test" } }, null, 2));
  writeFileSync(join(root, "README.md"), `# bench\n\n${"A project used to measure prompt sizes. ".repeat(40)}\n`);
  writeFileSync(join(root, "src", "lib.js"), `${"export const x = 1; // some library code\n".repeat(120)}`);
  return root;
}

export async function benchPromptTokens(print) {
  const root = project();
  const config = resolveConfig({
    root,
    fileConfig: { maxFixAttempts: 2, gates: [{ name: "test", command: "true" }] },
    file: null,
    env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    flags: {},
  });
  const calls = [];
  const model = new ScriptedModel(script(), calls);
  const deps = {
    config,
    agents: loadWorkflowAgents(config),
    createModel: () => model,
    classifyError: () => null,
    gates: config.gates,
    baseEnv: { PATH: process.env.PATH },
    secretEnvNames: [],
    logger: { info() {}, warn() {}, error() {} },
  };
  const session = await openSession(config);
  const handle = launchLoaded({
    deps,
    session,
    threadId: "bench-tokens",
    start: { requirement: "Add an add(a, b) function in src/add.js" },
    logFile: join(root, "bench.log"),
  });
  for await (const _ of handle.events);
  const result = await handle.result;
  await session.close();
  rmSync(root, { recursive: true, force: true });
  if (result.status !== "passed") throw new Error(`reference run ended ${result.status}: ${result.reason}`);

  // yolo: what each call really received. Naive: each call also carries every earlier agent run's whole transcript
  // (its last call's messages plus the reply), as a single shared conversation would.
  let yolo = 0;
  let naive = 0;
  let history = 0;
  let current = 0;
  for (const c of calls) {
    if (c.first) history += current;
    current = c.tokens;
    yolo += c.tokens;
    naive += history + c.tokens;
  }
  const agents = calls.filter((c) => c.first).length;
  print(`Prompt tokens of a reference run (5 agents, 2 fix attempts, ${agents} agent runs, ${calls.length} model calls, scripted model)`);
  print(`  naive full history : ${naive} prompt tokens (baseline)`);
  print(`  yolo middleware    : ${yolo} prompt tokens  → ${(yolo / naive).toFixed(2)}× the baseline (${(naive / yolo).toFixed(1)}× fewer)`);
}
