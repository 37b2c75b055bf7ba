import { Command, InvalidArgumentError, type Argument } from "commander";
import { outcomeOfError, YoloError } from "../errors.js";
import { exitCodeFor } from "../events/outcome.js";
import { LIMIT_DEFAULTS, PARALLEL_DEFAULT } from "../config/defaults.js";
import { packageVersion } from "../package-root.js";
import { tolerateClosedPipes } from "./closed-pipes.js";
import { installHardExit } from "./hard-exit.js";
import { errorText } from "./wording/error-text.js";
import { isHandOff } from "./hand-off.js";
import { earlyProbesLeft, releaseEarlyReads } from "./early-slot.js";
import { hoistGlobalFlags } from "./global-flags.js";

const VERSION = packageVersion();

/** Exit codes for errors thrown before or outside a run (a run's own outcome carries its code): the one table. */
function exitCodeForError(error: unknown): number {
  const { status, limit } = outcomeOfError(error);
  return exitCodeFor(status, limit);
}

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a whole number");
  return n;
};

const atLeastOne = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number of at least 1");
  return n;
};

const rate = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("expected a rate between 0 and 1 (0.6 for 60%)");
  return n;
};

const positiveNumber = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("expected a positive number");
  return n;
};

/**
 * Options shared by commands that run a thread. `pipeline`: also the ones only a workflow uses; `writes`: also
 * the ones about committing and human replies, which a read-only chat (no writes, no questions) has no use for.
 */
function runOptions(cmd: Command, { pipeline = true, writes = true } = {}): Command {
  cmd
    .option("--json", "print JSON Lines events on stdout (and nothing else)")
    .option("--json-tokens", "with --json: also print the model's text and thinking as they stream (token and thought events)")
    .option("--tui", "force the live terminal view")
    .option("--no-tui", "never use the live terminal view; print plain progress lines")
    .option("-m, --model <name>", "model name (overrides YOLO_MODEL and yolo.config.ts)")
    .option("--base-url <url>", "OpenAI-compatible endpoint (overrides OPENAI_BASE_URL)");
  if (pipeline) {
    cmd.option("--max-fix-attempts <n>", `how many times a blocked gate sends the change back to dev (default: ${LIMIT_DEFAULTS.maxFixAttempts})`, positiveInt);
    cmd.option("--test-cmd <command>", "the gate for this run: one required gate running <command>, instead of the configured or detected gates");
    cmd.option(
      "--parallel <n>",
      `stories built at the same time, each by its own dev in its own git worktree (default: ${PARALLEL_DEFAULT}; 1: one dev builds them all; resume keeps the thread's value unless given)`,
      positiveInt,
    );
  }
  cmd
    .option("--max-turns <n>", `model turns an agent may take before the run stops, resumable (default: ${LIMIT_DEFAULTS.maxTurns})`, positiveInt)
    .option(
      "--max-tokens <n>",
      "token budget for the whole run, resumes included (prompt + completion); reaching it stops the run resumably (exit 7)",
      positiveInt,
    )
    .option("--max-cost <amount>", "cost budget for the whole run at model.price; reaching it stops the run resumably (exit 7)", positiveNumber)
    .option(
      "--max-steps <n>",
      `graph steps for the whole run, resumes included (default: ${LIMIT_DEFAULTS.maxSteps}); reaching it stops the run resumably (exit 4)`,
      positiveInt,
    )
    .option(
      "--max-time <duration>",
      "active wall time for the whole run, resumes included (90s, 45m, 1h30m); reaching it stops the run resumably after the running step (exit 8)",
    )
    .option("--db <path>", "checkpoint database (default: .yolo/yolo.db)")
    .option("--verbose", "show more detail (every token in the live view)")
    .option("--ci", "unattended (also when CI is set): never prompt or read stdin; a question exits 3");
  if (writes) {
    cmd
      .option("--branch", "work on a new branch yolo/<thread> and commit after each dev iteration")
      .option("--no-branch", "do not commit (overrides `branch: true` in yolo.config.ts)")
      .option("--allow-dirty", "with --branch: start even with uncommitted changes (they are carried onto the branch)");
  }
  if (pipeline)
    cmd
      .option("--require-gate", "refuse to run (exit 2, before anything runs) when the project has no gate (no test script, nothing configured)")
      .option(
        "--known-failure <pattern>",
        "a test broken for reasons outside the task (its id or name, * a wildcard; repeatable): reported, never blocking; the thread keeps it",
        (value: string, before: string[] | undefined) => [...(before ?? []), value],
      );
  cmd
    .option("--record <file>", "store every model request and response of the run in <file> (JSON Lines)")
    .option("--replay <file>", "answer model requests from a recorded session instead of a model (offline, no key)");
  if (writes)
    cmd.option(
      "--answers <file>",
      "answers for unattended runs (YAML or JSON list of {node, question?, answer | approve | reject | edit}); a missing one exits 3",
    );
  return cmd;
}

/** What `yolo --help` adds after the command list: the exit codes and the environment, in short (README has both in full). */
const HELP_FOOTER = `
Exit codes:
  0    completed, the gate passed (agent, chat: answered)
  1    completed, the gate still fails after the fix attempts
  2    usage or configuration error: nothing ran
  3    waiting for a human: answer with yolo resume <thread> --answer "…"
  4    step limit (resumable, as are 5 to 9 and 130)
  5    model or provider error
  6    turn limit
  7    token or cost budget
  8    time limit
  9    loop detected
  70   internal error (the message names the log file)
  130  interrupted

Environment:
  OPENAI_API_KEY         API key (or the variable named by model.apiKeyEnv)
  OPENAI_BASE_URL        OpenAI-compatible endpoint, e.g. a local server
  YOLO_MODEL             model name (default gpt-4o-mini)
  YOLO_MAX_FIX_ATTEMPTS  default for --max-fix-attempts
  YOLO_DB                checkpoint database (SQLite file)
  YOLO_DATABASE_URL      a shared PostgreSQL database (postgres://…)
  YOLO_ARTIFACTS_DIR     logs, transcripts, gate outputs (default .yolo)
  YOLO_USER_CONFIG       the user-level config file (empty: none)
  YOLO_SANDBOX           auto, required or off (commands' sandbox)
  YOLO_TRUST_PROJECT_HOOKS  1: run yolo.config.ts hooks without yolo hooks trust
  YOLO_APPROVE           agents whose output you approve (pm), added to approve
  YOLO_SERVE_TOKEN       the token yolo serve requires for pages and replies
  BROWSER                the browser yolo serve --open starts (%s: the page)
  CI                     any value: like --ci (plain output, never prompts)

Run 'yolo <command> --help' for a command's options.
`;

/** Parses argv, runs one command, and sets the process's exit code. The only place that exits. */
export async function main(argv: string[]): Promise<void> {
  tolerateClosedPipes();
  installHardExit(exitNow);
  const program = new Command()
    .name("yolo")
    .description("An autonomous dev orchestrator: analyst → pm → architect → dev → tea, gated by your real tests.")
    .version(VERSION, "-v, --version")
    .option("-C, --cwd <dir>", "run as if yolo was started in <dir>")
    // The command list shows each command's arguments without "[options]", so descriptions fit 80 columns.
    .configureHelp({ subcommandTerm: (cmd) => [cmd.name(), ...cmd.registeredArguments.map(argumentTerm)].join(" ") })
    .addHelpText("after", HELP_FOOTER)
    // Help is laid out for at most 80 columns, so bin/yolo.js can print the text the build captured (dist/help.json).
    .configureOutput({ getOutHelpWidth: () => helpWidth(process.stdout), getErrHelpWidth: () => helpWidth(process.stderr) })
    .exitOverride();

  const exit = { code: 0 };
  const ctx: Registration = {
    setCode: (c: number): void => {
      exit.code = c;
    },
    cwdOf: () => (program.opts().cwd as string | undefined) ?? process.cwd(),
  };
  registerRunCommands(program, ctx);
  registerResume(program, ctx);
  registerThreadCommands(program, ctx);
  registerProjectCommands(program, ctx);
  registerEval(program, ctx);
  registerServers(program, ctx);

  // A usage error prints the error and where to find help, not the whole help (which scrolls the error away).
  program.showHelpAfterError("Run 'yolo --help' for usage.");
  for (const cmd of program.commands) cmd.showHelpAfterError(`Run 'yolo ${cmd.name()} --help' for usage.`);

  if (argv.length <= 2) {
    program.outputHelp({ error: true });
    process.exitCode = 2;
    return;
  }
  await parseAndRun(program, argv, exit);
}

/** What each command's action needs from main: where to put its exit code, and the directory it runs in. */
interface Registration {
  setCode(code: number): void;
  cwdOf(): string;
}

/** `run`, `agent` and `chat`: new threads, started by src/cli/commands/run.ts. */
function registerRunCommands(program: Command, { setCode, cwdOf }: Registration): void {
  runOptions(
    program.command("run").description("run the pipeline on a requirement").argument("<requirement...>", "what to build, in words; - reads it from stdin"),
  ).action(async (words: string[], opts) =>
    setCode(await (await import("./commands/run.js")).runCommand({ cwd: cwdOf(), requirement: words.join(" "), opts })),
  );
  runOptions(
    program
      .command("agent")
      .description("run one agent (agents/<id>.md) on its own, with its persona and tools: a thread, no pipeline")
      .argument("<id>", "the agent's id (analyst, pm, architect, dev, tea, or one of the project's agents/*.md)")
      .argument("<message...>", "what to do, in words; - reads it from stdin"),
    { pipeline: false },
  ).action(async (id: string, words: string[], opts) =>
    setCode(await (await import("./commands/run.js")).soloCommand({ cwd: cwdOf(), profile: { mode: "agent", agentId: id }, message: words.join(" "), opts })),
  );
  runOptions(
    program
      .command("chat")
      .description('ask about the project: no persona, read-only tools; a thread you can continue with yolo resume <thread> "…"')
      .argument("<message...>", "your question; - reads it from stdin"),
    { pipeline: false, writes: false },
  ).action(async (words: string[], opts) =>
    // A chat only reads: it never starts a branch, whatever `branch` says in yolo.config.ts.
    setCode(
      await (await import("./commands/run.js")).soloCommand({
        cwd: cwdOf(),
        profile: { mode: "chat" },
        message: words.join(" "),
        opts: { ...opts, branch: false },
      }),
    ),
  );
}

/** `resume`: continue, answer or fork a thread. */
function registerResume(program: Command, { setCode, cwdOf }: Registration): void {
  runOptions(
    program
      .command("resume")
      .description("continue a thread from its last checkpoint; with a message, continue a finished agent or chat thread's conversation")
      .argument("[thread]", "thread id (see yolo threads); with --last, leave it out")
      .argument("[message...]", "a follow-up message for a finished agent or chat thread")
      .option("--last", "the thread of this repository that ran last")
      .option("--answer <text>", "the answer to the question the thread is waiting on")
      .option("--approve", "approve the output a human step is waiting on")
      .option("--reject <why>", "reject it, with the reason the agent gets")
      .option("--edit <file>", "replace it with the edited artifact in <file>, and approve")
      .option("--from <checkpoint>", "fork a new thread from this step or checkpoint id (see yolo history) and run it"),
  ).action(async (thread: string | undefined, words: string[], opts, cmd: Command) => {
    // The thread is optional only for --last: without it, the same usage error as any missing argument.
    if (thread === undefined && !opts.last)
      cmd.error("error: missing required argument 'thread': give its id (yolo threads lists them), or --last for the thread that ran last", {
        code: "commander.missingArgument",
      });
    setCode(await (await import("./commands/run.js")).resumeCommand({ cwd: cwdOf(), thread, message: words.length ? words.join(" ") : undefined, opts }));
  });
}

/** `threads` (with `rm` and `prune`), `show`, `report` and `history`: reading and deleting threads. */
function registerThreadCommands(program: Command, { setCode, cwdOf }: Registration): void {
  program
    .command("threads")
    .description("list this repository's threads (--all: every thread in the database, with who ran it where)")
    .option("--json", "print JSON")
    .option("--all", "every thread in the database (a shared PostgreSQL one: all repositories and machines), with host, user and root")
    .action(async (opts) => setCode(await (await import("./commands/threads.js")).threadsCommand({ cwd: cwdOf(), json: !!opts.json, all: !!opts.all })));
  const threadsCmd = program.commands.find((c) => c.name() === "threads")!;
  threadsCmd
    .command("rm")
    .description("delete threads for good: checkpoints, index row, transcripts and logs (a running thread is refused)")
    .argument("<thread...>", "thread ids (see yolo threads)")
    .action(async (ids: string[]) => setCode(await (await import("./commands/threads-delete.js")).threadsRemoveCommand({ cwd: cwdOf(), ids })));
  threadsCmd
    .command("prune")
    .description("delete this repository's threads not run for a while (running ones are kept)")
    .requiredOption("--older-than <duration>", "last run longer ago than this: 30d, 12h, 90m")
    .option("--dry-run", "list what would be deleted, delete nothing")
    .action(async (opts) =>
      setCode(
        await (await import("./commands/threads-delete.js")).threadsPruneCommand({ cwd: cwdOf(), olderThan: String(opts.olderThan), dryRun: !!opts.dryRun }),
      ),
    );
  program
    .command("show")
    .description("show a thread: requirements, stories, decisions, changes, gates, usage")
    .argument("[thread]", "thread id; with --last, leave it out")
    .option("--last", "the thread of this repository that ran last")
    .option("--json", "print JSON")
    .option("--diff", "print the change since the thread's start commit (git diff, new files included)")
    .action(async (thread: string | undefined, opts, cmd: Command) => {
      const id = await threadArgument(thread, opts, cmd, cwdOf());
      setCode(await (await import("./commands/show.js")).showCommand({ cwd: cwdOf(), thread: id, json: !!opts.json, diff: !!opts.diff }));
    });
  program
    .command("report")
    .description("a thread's report: markdown for a job summary or PR comment, or the gate results as JUnit XML")
    .argument("[thread]", "thread id; with --last, leave it out")
    .option("--last", "the thread of this repository that ran last")
    .option("--format <format>", "markdown or junit", "markdown")
    .option("--output <file>", "write the report to <file> instead of stdout")
    .action(async (thread: string | undefined, opts, cmd: Command) => {
      const id = await threadArgument(thread, opts, cmd, cwdOf());
      setCode(await (await import("./commands/report.js")).reportCommand({ cwd: cwdOf(), thread: id, format: String(opts.format), output: opts.output }));
    });
  program
    .command("history")
    .description("list a thread's checkpoints: step, node, time, summary")
    .argument("[thread]", "thread id; with --last, leave it out")
    .option("--last", "the thread of this repository that ran last")
    .option("--json", "print JSON")
    .action(async (thread: string | undefined, opts, cmd: Command) => {
      const id = await threadArgument(thread, opts, cmd, cwdOf());
      setCode(await (await import("./commands/history.js")).historyCommand({ cwd: cwdOf(), thread: id, json: !!opts.json }));
    });
}

/**
 * A reading command's thread: the id given, or with `--last` the repository's thread that ran last. Both (or neither)
 * is the usage error a missing argument gets.
 */
async function threadArgument(thread: string | undefined, opts: { last?: boolean }, cmd: Command, cwd: string): Promise<string> {
  if (thread !== undefined && opts.last) cmd.error("error: give a thread id or --last, not both", { code: "commander.conflictingOption" });
  if (thread !== undefined) return thread;
  if (!opts.last)
    cmd.error("error: missing required argument 'thread': give its id (yolo threads lists them), or --last for the thread that ran last", {
      code: "commander.missingArgument",
    });
  return (await import("./last-thread.js")).lastThreadId(cwd);
}

/** `init`, `hooks`, `config`, `graph` and `doctor`: the project's set-up. */
function registerProjectCommands(program: Command, { setCode, cwdOf }: Registration): void {
  program
    .command("init")
    .description("scaffold yolo.config.ts (with the default workflow) and editable copies of the default agents; never overwrites")
    .action(async () => setCode(await (await import("./commands/init.js")).initCommand({ cwd: cwdOf() })));
  program
    .command("hooks")
    .description("list hooks; `trust` lets the repository's hook set run, `untrust` stops it")
    .argument("[action]", "list, trust or untrust", "list")
    .action(async (action: string) => setCode(await (await import("./commands/hooks.js")).hooksCommand({ cwd: cwdOf(), action })));
  program
    .command("config")
    .description("`trust`: let read-only commands run the project's yolo.config.* and .mcp.json as they are now")
    .argument("<action>", "trust")
    .action(async (action: string) => setCode(await (await import("./commands/config.js")).configCommand({ cwd: cwdOf(), action })));
  program
    .command("graph")
    .description("print the configured workflow as a Mermaid flowchart")
    .action(async () => setCode(await (await import("./commands/graph.js")).graphCommand({ cwd: cwdOf() })));
  program
    .command("doctor")
    .description(
      "check the model endpoint (reachable, key, model, a tool-call round trip, usage, context window), the sandbox, git, the database and the gates",
    )
    .option("--json", "print the checks as JSON")
    .action(async (opts) => setCode(await (await import("./commands/doctor.js")).doctorCommand({ cwd: cwdOf(), json: !!opts.json })));
}

/** `eval`: build eval tasks from the repository, or run them. */
function registerEval(program: Command, { setCode, cwdOf }: Registration): void {
  const evalCommand = program.command("eval");
  evalCommand
    .description("measure a model on this repository: build tasks from its history (--from-history) or by mutation (--mutate), run them (--tasks)")
    .option("--from-history <rev-range>", "build tasks from the commits of <rev-range> (e.g. v1.0..HEAD) that change source and tests together; no model")
    .option(
      "--mutate <n>",
      "build <n> tasks by injecting single bugs into the source at HEAD (JS/TS with TypeScript's parser, Python with python3's ast), kept when a test fails; no model",
      atLeastOne,
    )
    .option(
      "--canaries <k>",
      "add <k> integrity canaries: tasks whose target assertion was flipped to contradict the code, so no honest change passes; alone or beside --from-history or --mutate; no model",
      atLeastOne,
    )
    .option("--max <n>", "with --from-history: at most <n> candidate commits, the newest", positiveInt)
    .option("--out <file>", "with --from-history or --mutate: the task file to write (default: .yolo/eval/<name>.jsonl)")
    .option("--name <name>", "the eval's name: its task file and run folder under .yolo/eval/ (default: history, or mutants with --mutate)")
    .option("--tasks <file>", "run the tasks of <file>: each as a yolo run thread in its own worktree, judged by the original tests")
    .option(
      "--visible-tests",
      "with --tasks: start each history task with its commit's test changes in the worktree (default: hidden from the agents, applied by the judge)",
    )
    .option(
      "-m, --model <name>",
      "with --tasks: a model to measure; repeat to compare models (default: the configured one)",
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option("--base-url <url>", "OpenAI-compatible endpoint (overrides OPENAI_BASE_URL)")
    .option("--parallel <n>", "with --tasks: task runs at the same time (default: 1)", atLeastOne)
    .option("--max-cost <amount>", "with --tasks: each task's cost budget (its run stops there and is judged as it stands)", positiveNumber)
    .option("--max-tokens <n>", "with --tasks: each task's token budget (likewise)", positiveInt)
    .option(
      "--eval-max-cost <amount>",
      "with --tasks: the whole eval's cost budget at model.price; once spent, no further task starts (reported as not run (budget))",
      positiveNumber,
    )
    .option("--eval-max-tokens <n>", "with --tasks: the whole eval's token budget (likewise)", positiveInt)
    .option("--max-fix-attempts <n>", "with --tasks: fix attempts of each task's run", positiveInt)
    .option("--report <format>", "with --tasks: md prints a Markdown report (for a PR comment or a job summary)")
    .option("--junit <file>", "with --tasks: also write JUnit XML, one test case per task")
    .option("--min-resolve <rate>", "with --tasks: exit 1 when a model resolves less than <rate> (0 to 1) of the tasks", rate)
    .option("--record [dir]", "with --tasks: keep every task's model session in <dir> (default: .yolo/eval/sessions/<name>/) to replay the eval")
    .option("--replay <dir>", "with --tasks: answer every task's model requests from the sessions in <dir> (offline, no key); always runs again")
    .option("--shard <k>/<n>", "with --tasks: run shard k of n, a fixed share of the tasks × models (by a hash of each pair); merge with yolo eval merge")
    .option("--json", "print JSON on stdout (and nothing else)")
    .action(async (opts) => setCode(await (await import("./commands/eval.js")).evalCommand({ cwd: cwdOf(), opts })));
  evalCommand
    .command("merge [paths...]")
    .description(
      "one report from the shards of an eval: their records (shard-<k>-of-<n>.json) in the given files or folders, or with none from the PostgreSQL database (YOLO_DATABASE_URL)",
    )
    .option("--name <name>", "the eval to merge (needed when the database or folders hold several)")
    .option("--report <format>", "md prints a Markdown report")
    .option("--junit <file>", "also write JUnit XML, one test case per task")
    .option("--min-resolve <rate>", "exit 1 when a model resolves less than <rate> (0 to 1) of the tasks", rate)
    .option("--json", "print JSON on stdout (and nothing else)")
    // The flags merge shares with eval (--report, --json, …) are read by eval's parser wherever they stand: take both.
    .action(async (paths: string[], _opts, command: Command) =>
      setCode(await (await import("./commands/eval-merge.js")).evalMergeCommand({ cwd: cwdOf(), paths: paths ?? [], opts: command.optsWithGlobals() })),
    );
}

/** `mcp` and `acp`: yolo served over stdio. */
function registerServers(program: Command, { setCode, cwdOf }: Registration): void {
  program
    .command("mcp")
    .description("serve yolo over stdio to an MCP client: tools run, resume, threads, show, report")
    .action(async () => setCode(await (await import("./commands/mcp.js")).mcpCommand({ cwd: cwdOf() })));

  program
    .command("acp")
    .description("serve yolo to an editor over stdio with the Agent Client Protocol (Zed, JetBrains, Neovim)")
    .action(async () => setCode(await (await import("./commands/acp.js")).acpCommand()));

  program
    .command("serve")
    .description("a web view of the threads and evals (127.0.0.1; another --host needs a token)")
    .option("--port <n>", "the port to listen on (0: any free one)", positiveInt, 4317)
    .option("--host <addr>", "the address to listen on; not loopback: needs YOLO_SERVE_TOKEN or prints one", "127.0.0.1")
    .option("--open", "open the page in the browser")
    .option("--all", "every thread in the database (a shared PostgreSQL one: all repositories)")
    .action(async (opts) =>
      setCode(
        await (await import("./commands/serve.js")).serveCommand({
          cwd: cwdOf(),
          flags: {
            host: String(opts.host),
            port: opts.port,
            open: !!opts.open,
            all: !!opts.all,
            token: process.env.YOLO_SERVE_TOKEN,
            browser: process.env.BROWSER,
          },
        }),
      ),
    );
}

/** Runs the command argv names and sets the exit code its action (or its error) gives. */
async function parseAndRun(program: Command, argv: string[], exit: { code: number }): Promise<void> {
  // If the event loop ever drains while a command is still pending (a promise nothing will settle), Node would
  // exit 0: never let an unfinished run look like a success.
  let finished = false;
  process.once("beforeExit", () => {
    if (!finished) {
      process.stderr.write("yolo: internal error: stopped while waiting on nothing; the last completed step is saved (resume the thread)\n");
      process.exitCode = 70;
    }
  });
  try {
    await program.parseAsync(hoistGlobalFlags(argv, program));
  } catch (error) {
    // The light CLI (bin/yolo.js → dist/cli/light.cjs) hands a command it cannot finish to the full CLI, unprinted.
    if (isHandOff(error)) {
      finished = true;
      throw error;
    }
    exit.code = handleError(error);
  }
  finished = true;
  const { code } = exit;
  process.exitCode = code;
  releaseEarlyReads();
  // Reads bin/yolo.js began for a run that stopped before taking them (src/cli/early-slot.ts) are not needed, and
  // would hold the exit until they end (a large repository's status takes seconds): nothing else is pending then.
  if (earlyProbesLeft()) exitNow(code);
}

/** Commander's help width for a stream (its columns on a terminal, else commander's default 80), capped at 80. */
function helpWidth(stream: NodeJS.WriteStream): number {
  return stream.isTTY ? Math.min(stream.columns, 80) : 80;
}

/** `<name>`, `[name]`, `<name...>` as commander writes an argument in usage lines. */
function argumentTerm(arg: Argument): string {
  const name = arg.name() + (arg.variadic ? "..." : "");
  return arg.required ? `<${name}>` : `[${name}]`;
}

/** Stops the process at once (a third Ctrl+C). Lives here so main.ts stays the only module that exits. */
function exitNow(code: number): never {
  process.exit(code);
}

function handleError(error: unknown): number {
  const e = error as { code?: string; exitCode?: number };
  // commander's own exits (help, version, usage errors) have already printed their message.
  if (typeof e?.code === "string" && e.code.startsWith("commander.")) {
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help") return 0;
    return 2;
  }
  if (error instanceof YoloError) {
    process.stderr.write(`yolo: ${errorText(error)}\n`);
    return exitCodeForError(error);
  }
  process.stderr.write(`yolo: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
  return 70;
}
