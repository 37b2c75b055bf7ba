// Stories in parallel (docs/stories.md): wall time and prompt tokens of the built binary with `--parallel 4` against
// `--parallel 1`, in the same run, on four independent stories. The model is the scripted OpenAI-compatible server
// on 127.0.0.1 and answers every call after a fixed latency, so the wall time is dominated by model calls, as with a
// hosted model; each story takes STORY_CALLS tool calls and a handoff, the same work in both runs.
import { execa } from "execa";
import { createJiti } from "jiti";
import { fileURLToPath, pathToFileURL } from "node:url";

const BIN = fileURLToPath(new URL("../bin/yolo.js", import.meta.url));
const LATENCY_MS = 300;
// Tool calls a story's dev makes before its handoff (reads of small notes, then the story's one file).
const STORY_CALLS = 10;
const GOAL = 0.4;
// Alternated rounds, medians compared: drift on a shared machine hits both settings alike.
const ROUNDS = 3;
const REQUIREMENT = "Add four independent helpers, one module each";
const STORIES = ["alpha", "bravo", "charlie", "delta"].map((name, i) => ({
  id: `s${i + 1}`,
  depends_on: [],
  title: `Story ${name}: add src/${name}.js`,
  as_a: "developer",
  i_want: `a ${name}() helper in src/${name}.js`,
  so_that: "each story touches its own file",
  acceptance_criteria: [`src/${name}.js exports ${name}`],
  file: `src/${name}.js`,
  name,
}));
const CONFIG = `export default { gates: [{ name: "test", command: "true" }], limits: { maxTurns: 500, maxSteps: 2000 } };\n`;

const call = (name, args) => ({ toolCalls: [{ name, args }] });
const handoff = (args) => call("handoff", args);
const text = (content) => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => p?.text ?? "").join("") : "");

/**
 * The stories a dev request is about, from the story titles in its user messages (else anywhere in it): one story
 * for a story's own dev run, all four for `--parallel 1`'s single dev. Anything else is a contract change the bench
 * must not guess around.
 */
function storiesOf(req, parallel) {
  const found = (messages) => STORIES.filter((s) => messages.some((m) => text(m?.content).includes(s.title)));
  const inUser = found(req.messages.filter((m) => m?.role === "user"));
  const stories = inUser.length ? inUser : found(req.messages);
  if (parallel > 1 ? stories.length === 1 : stories.length === STORIES.length) return stories;
  throw new Error(
    `a dev request of --parallel ${parallel} names ${stories.length} of the ${STORIES.length} story titles in its user messages; expected ${parallel > 1 ? "exactly its own story's" : "all of them"}`,
  );
}

/** Every agent's next turn, computed from the request alone, so concurrent dev runs cannot take each other's turns. */
function responder(roleOf, stats, parallel) {
  return async (req) => {
    stats.calls++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      return { ...turn(roleOf(req), req, parallel), delayMs: LATENCY_MS };
    } catch (err) {
      // Kept for the report: the run only sees a 500 from the server.
      stats.errors.push(err.message);
      return { status: 500, content: `bench: ${err.message}` };
    } finally {
      // Counted down when the latency has passed: the reply is sent right after the delay.
      setTimeout(() => stats.inFlight--, LATENCY_MS);
    }
  };
}

function turn(role, req, parallel) {
  switch (role) {
    case "analyst":
      return handoff({
        requirements: `# Helpers\n${STORIES.map((s) => `- ${s.file}`).join("\n")}`,
        acceptance_criteria: STORIES.map((s) => s.acceptance_criteria[0]),
      });
    case "pm":
      return handoff({ stories: STORIES.map(({ file: _f, name: _n, ...s }) => s), needs_architecture: false });
    case "dev": {
      const stories = storiesOf(req, parallel);
      const done = req.messages.filter((m) => m?.role === "assistant").length;
      const story = stories[Math.floor(done / STORY_CALLS)];
      if (!story) return handoff({ summary: `added ${stories.map((s) => s.file).join(", ")}`, files_changed: stories.map((s) => s.file) });
      // A different file each time: the same call repeated in a row is stopped as a loop.
      if (done % STORY_CALLS < STORY_CALLS - 1) return call("read_file", { path: `docs/note-${(done % STORY_CALLS) + 1}.md` });
      return call("write_file", { path: story.file, content: `export function ${story.name}() {\n  return "${story.name}";\n}\n` });
    }
    case "tea":
      return handoff({ verdict: "PASS", findings: [] });
    default:
      // The summarizer, or a role this bench does not know: plain text, never a tool call.
      return { content: "Summary of the earlier turns." };
  }
}

/** Fails loudly when the built binary has no `--parallel` (this build has no stories-in-parallel engine). */
async function requireParallelFlag() {
  const help = await execa(process.execPath, [BIN, "run", "--help"], {
    reject: false,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: "true" },
    extendEnv: false,
  });
  if (!`${help.stdout}${help.stderr}`.includes("--parallel")) {
    throw new Error(
      "`yolo run --help` lists no --parallel: this build has no stories-in-parallel engine; build the branch that has it, then run the bench again.",
    );
  }
}

/** One run of the built binary with `--parallel n`: wall time, usage and what the model server saw. */
async function measure(helpers, n) {
  const notes = Object.fromEntries(Array.from({ length: STORY_CALLS - 1 }, (_, i) => [`docs/note-${i + 1}.md`, `# Note ${i + 1}\n`]));
  const project = helpers.makeProject({ "yolo.config.mjs": CONFIG, ...notes });
  const stats = { calls: 0, inFlight: 0, maxInFlight: 0, errors: [] };
  const mock = await helpers.startMockOpenAI(responder(helpers.roleOf, stats, n));
  try {
    const started = process.hrtime.bigint();
    const r = await execa(process.execPath, [BIN, "run", "--json", "--parallel", String(n), REQUIREMENT], {
      cwd: project.root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: mock.url, CI: "true", YOLO_USER_CONFIG: "" },
      extendEnv: false,
      reject: false,
      encoding: "utf8",
      timeout: 600_000,
    });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.exitCode === 2 && /parallel/i.test(r.stderr)) throw new Error(`yolo run does not accept --parallel ${n}:\n${r.stderr.trim()}`);
    if (stats.errors.length) throw new Error(`yolo run --parallel ${n}: the scripted model could not answer: ${stats.errors[0]}`);
    const events = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const end = events.find((e) => e.type === "run.completed");
    if (r.exitCode !== 0 || !end) throw new Error(`yolo run --parallel ${n} exited ${r.exitCode}: ${end?.reason ?? ""}\n${r.stderr.slice(-2000)}`);
    // The stories' part of the run, from the events' own timestamps: dev's first start to tea's (merges included).
    const at = (node) => Date.parse(events.find((e) => e.type === "node.started" && e.node === node && e.story === undefined)?.ts ?? "");
    const devMs = at("tea") - at("dev");
    return {
      wallMs,
      devMs,
      usage: end.usage,
      stories: events.filter((e) => e.type === "story.started").length,
      calls: stats.calls,
      concurrent: stats.maxInFlight,
    };
  } finally {
    await mock.close();
    project.cleanup();
  }
}

/** The run with the median wall time (its tokens and phases go with it). */
function medianRun(runs) {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)];
}

/** Prints the `--parallel 4` / `--parallel 1` wall-time ratio (goal ≤ GOAL) and both runs' prompt tokens. */
export async function benchParallelStories(log) {
  await requireParallelFlag();
  const jiti = createJiti(import.meta.url);
  const helpers = {
    ...(await jiti.import("../tests/helpers/mock-openai.ts")),
    ...(await jiti.import("../tests/helpers/project.ts")),
  };
  const rounds = { 1: [], 4: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of [1, 4]) rounds[n].push(await measure(helpers, n));
  }
  const bad = rounds[4].find((r) => r.stories !== STORIES.length);
  if (bad) throw new Error(`--parallel 4 started ${bad.stories} stories (story.started events); expected ${STORIES.length}`);
  const one = medianRun(rounds[1]);
  const four = medianRun(rounds[4]);
  const ratio = four.wallMs / one.wallMs;
  const tokens = (u) => u.promptTokens.toLocaleString("en-US");
  log(
    `Stories in parallel: 4 independent stories of ${STORY_CALLS} tool calls + a handoff each, model latency ${LATENCY_MS} ms a call; median of ${ROUNDS} alternated runs`,
  );
  log(`  --parallel 1 : ${(one.wallMs / 1000).toFixed(1)} s, ${one.calls} model calls, ${tokens(one.usage)} prompt tokens (baseline)`);
  log(
    `  --parallel 4 : ${(four.wallMs / 1000).toFixed(1)} s, ${four.calls} model calls (${four.concurrent} at once at most), ${tokens(four.usage)} prompt tokens`,
  );
  log(
    `  wall time ${ratio.toFixed(2)}× the baseline (goal ≤ ${GOAL}${ratio <= GOAL ? ", met" : ", NOT met"}); prompt tokens ${(four.usage.promptTokens / one.usage.promptTokens).toFixed(2)}× the baseline`,
  );
  log(
    `  dev to tea (the stories, worktrees and merges): ${(four.devMs / 1000).toFixed(1)} s against ${(one.devMs / 1000).toFixed(1)} s, ${(four.devMs / one.devMs).toFixed(2)}×`,
  );
}

// `node bench/parallel-stories.mjs` runs this case alone (after `npm run build`).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchParallelStories((line) => console.log(line));
