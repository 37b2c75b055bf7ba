// yolo's configuration for this repository — also the worked example of every setting.
// Precedence: built-in defaults < this file < environment (OPENAI_*, YOLO_*) < command-line flags.
import { defineConfig } from "yolo";

export default defineConfig({
  model: {
    // Any OpenAI-compatible model. YOLO_MODEL or --model override it; an agent's own `model:` wins for that agent.
    name: "gpt-4o-mini",
    // baseURL: "http://localhost:11434/v1", // Ollama; or set OPENAI_BASE_URL
    // apiKeyEnv: "OPENAI_API_KEY",          // the variable the key is read from
    maxRetries: 4, // 429, 5xx and connection resets, with backoff; an unreachable server at most 2, a silent one 1; 400/401/403/404 never
    timeoutS: 120, // no answer (or silence mid-stream) for this long fails the attempt: a silent server fails a call in about 2 × timeoutS
    // api: "responses",        // the OpenAI Responses API instead of Chat Completions (Responses-only models)
    // reasoningEffort: "low",  // reasoning models (o-series, gpt-5): minimal | low | medium | high, sent as reasoning_effort
    // Price per million tokens, for the cost line of `yolo report` (without it, reports show tokens only).
    // The figures are an example: use your provider's current price for the model.
    // price: { inputPerMillion: 0.15, outputPerMillion: 0.6, currency: "USD" },
  },
  // How many times a blocked gate sends the change back to dev before the run ends as failed (exit 1).
  maxFixAttempts: 3,
  // The quality gate tea's node runs as real child processes. Without `gates`, yolo runs `npm test`
  // when package.json has a test script. A failing required gate always blocks, whatever the model says.
  // A test failing before the run is the task's target and blocks until it passes; `baseline: "report"` on a gate
  // lets such failures pass, reported as pre-existing. A gate's `knownFailures` lists its tests broken for reasons
  // outside any task (ids or names, * a wildcard): reported, never blocking.
  gates: [{ name: "test", command: "npm test", required: true, timeoutS: 1200 }],
  // Known failures of every gate, same patterns; `--known-failure <pattern>` on run/resume adds to them for a thread.
  // knownFailures: ["test/net.test.ts > *"],
  // Agents are read from agents/<id>.md; a file here overrides the shipped default with the same id.
  agentsDir: "agents",
  // Checkpoints and the thread index (SQLite). `.yolo/` ignores itself in git.
  dbPath: ".yolo/yolo.db",
  // A shared PostgreSQL database instead of dbPath, for a team (the YOLO_DATABASE_URL variable overrides it):
  // checkpointer: { postgres: "postgres://yolo@db.internal:5432/yolo" },
  // The artifacts folder: run logs, transcripts, gate outputs (default .yolo; YOLO_ARTIFACTS_DIR overrides it).
  // storage: { artifacts: ".yolo" },
  // Work on a new branch yolo/<thread> and commit after each dev iteration, like --branch (--no-branch overrides).
  branch: false,
  // Stories pm marks independent (depends_on) built at the same time, each by its own dev in its own git worktree,
  // then merged and gated together; 1: one dev builds them all (like --parallel N).
  parallel: 3,
  // What each agent sees, assembled before every model call (context loader → workflow router → tool selector → summarization).
  context: {
    summarizeAt: 0.7, // summarize older turns once an agent's transcript passes this fraction of the context window
    // contextWindows: { "my-local-model": 8192 }, // tokens per model name; common models are known, others get 32768
    // disabledTools: ["run_command"],             // no agent may call these
    // rolePermissions: { tea: ["read_file", "list_files", "search_files", "run_command"] }, // per agent id: at most these
  },
  // What run_command may run: argv patterns (docs/security.md). This file can only narrow
  // the user config (~/.config/yolo/config.ts): every allow-list in force applies, deny rules add up, and the
  // default deny list (sudo, rm -rf /, … | sh, …) always does.
  // commands: { allow: ["npm", "node", "git status", "git diff"], deny: ["npm publish"], roles: { tea: { allow: ["npm test"] } } },
  // Under CI, commands and gates get only PATH, HOME, LANG, … and these variables (secret-looking names never).
  // env: { allow: ["MY_SERVICE_URL"] },
  // Commands and gates in bubblewrap (project the only writable folder, no network): "auto" when it works here,
  // "required" to require it (exit 2 without; "bwrap" is its older name), "off" (honoured from the user config or
  // YOLO_SANDBOX only).
  sandbox: "auto",
  // Commands run around tool calls and steps, in Claude Code's hooks shape (docs/mcp-and-hooks.md, "Hooks"). A repository's hooks
  // run only once the user has trusted this exact set (`yolo hooks trust`); the user config's always run.
  // hooks: { PreToolUse: [{ matcher: "run_command", hooks: [{ type: "command", command: "sh hooks/check-command.sh", timeout: 10 }] }] },
  // Files that run code outside yolo (.vscode/tasks.json, .envrc, .github/actions, hook-manager configs, …) are refused
  // to write_file/edit_file; the user config's files.allowExec names those yolo may write. Here it can only narrow that.
  // files: { allowExec: [".github/actions"] },
  // Stop the run cleanly at a checkpoint (exit 7, resumable with a higher budget) once it has used this much,
  // resumes included. --max-tokens / --max-cost override; maxCost needs model.price.
  // budget: { maxTokens: 2_000_000, maxCost: 5 },
  limits: {
    maxTurns: 30, // model turns per agent run before it stops (exit 6, resumable)
    handoffReminders: 3, // replies without a tool call tolerated before the run stops (exit 6)
    commandTimeoutS: 300, // run_command's default timeout
    outputCapBytes: 16000, // command output returned to the model (head and tail kept)
    readCapBytes: 64000, // bytes read_file returns
    maxSteps: 200, // graph steps (node runs) per thread, resumes included (exit 4, resumable); --max-steps overrides
    // maxTime: "1h", // active wall time per thread, resumes included (exit 8, resumable); --max-time overrides
  },
});
