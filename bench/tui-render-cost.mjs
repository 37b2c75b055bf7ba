// CPU time of a whole run drawn by the Ink view against the same run with --json, under a token flood from
// the scripted model, and how many frames the view writes per second. Both runs are the built binary on a
// pseudo-terminal (`script`), so the only difference is the renderer; CPU is the yolo process's own
// (process.cpuUsage at exit, reported by an --import hook), not the mock's or the gate's. Each mode also runs
// a flood half as long: the difference between the two sizes, over the tokens it adds, is the CPU each streamed
// chunk costs, with start-up and the run's fixed costs taken out.
import { execa } from "execa";
import { createJiti } from "jiti";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const BIN = fileURLToPath(new URL("../bin/yolo.js", import.meta.url));
const ROUNDS = 3;
// Per agent's first reply: this many tokens, each its own SSE chunk, a newline every 12, streamed at
// FLOOD_RATE tokens a second (several times a fast hosted model). The short run streams SHORT_TOKENS.
const FLOOD_TOKENS = 3000;
const SHORT_TOKENS = FLOOD_TOKENS / 2;
const FLOOD_RATE = 1500;

// Runs inside the measured process: counts what it writes to stdout and reports its own CPU at exit.
const HOOK = `import { writeFileSync } from "node:fs";
const started = performance.now();
const times = [];
let bytes = 0;
const write = process.stdout.write.bind(process.stdout);
// Ink brackets each frame with "synchronized update" begin/end codes: those are not frames of their own.
const SYNC = new Set(["\\x1b[?2026h", "\\x1b[?2026l"]);
process.stdout.write = (chunk, ...rest) => {
  if (!SYNC.has(String(chunk))) times.push(performance.now());
  bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
  return write(chunk, ...rest);
};
process.on("exit", () => {
  const cpu = process.cpuUsage();
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  const report = { cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - started, frames: times.length, peakPerSecond: peak, bytes };
  writeFileSync(process.env.YOLO_BENCH_REPORT, JSON.stringify(report));
});
`;

const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

function floodText(tokens) {
  const words = [];
  for (let i = 1; i <= tokens; i++) words.push(i % 12 === 0 ? `w${i}\n` : `w${i} `);
  return words.join("");
}

/** The scripted team: every agent streams a flood of text before its tool calls. */
function script(helpers, tokens) {
  const { director, call, handoff, analystDone, pmDone, teaSays, GOOD_ADD } = helpers;
  const flood = (reply) => ({ ...reply, content: floodText(tokens), contentChunks: tokens, contentRate: FLOOD_RATE });
  return director({
    analyst: [flood(analystDone)],
    pm: [flood(pmDone(false))],
    dev: [flood(call("write_file", { path: "src/add.js", content: GOOD_ADD })), handoff({ summary: "wrote add", files_changed: ["src/add.js"] })],
    tea: [flood(teaSays("PASS"))],
  });
}

/**
 * One measured run of the binary on a 100×30 pseudo-terminal, `tokens` per agent's flood; returns the hook's report.
 * `nodeArgs` go to node (e.g. `--cpu-prof`, to profile a mode under the flood).
 */
export async function measureFlood(helpers, dir, flags, tokens = FLOOD_TOKENS, nodeArgs = []) {
  const project = helpers.makeProject({ "yolo.config.mjs": 'export default { gates: [{ name: "test", command: "true" }] };\n' });
  const mock = await helpers.startMockOpenAI(script(helpers, tokens));
  const report = join(dir, "report.json");
  try {
    const command = [process.execPath, ...nodeArgs, "--import", pathToFileURL(join(dir, "hook.mjs")).href, BIN, "run", ...flags, "Add an add(a, b) function"]
      .map(quote)
      .join(" ");
    const r = await execa("script", ["-qec", `stty cols 100 rows 30; exec ${command}`, "/dev/null"], {
      cwd: project.root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        OPENAI_BASE_URL: mock.url,
        YOLO_BENCH_REPORT: report,
        TERM: "xterm-256color",
        SHELL: "/bin/sh",
        LANG: "C.UTF-8",
      },
      extendEnv: false,
      reject: false,
      encoding: "utf8",
      timeout: 300_000,
    });
    if (r.exitCode !== 0) throw new Error(`yolo run ${flags.join(" ")} exited ${r.exitCode}:\n${String(r.stdout).slice(-2000)}`);
    return JSON.parse(readFileSync(report, "utf8"));
  } finally {
    await mock.close();
    project.cleanup();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The scripted-model helpers and a directory holding the measuring hook (the caller removes it). */
export async function floodSetup() {
  const jiti = createJiti(import.meta.url);
  const helpers = {
    ...(await jiti.import("../tests/helpers/mock-openai.ts")),
    ...(await jiti.import("../tests/helpers/director.ts")),
    ...(await jiti.import("../tests/helpers/project.ts")),
  };
  const dir = mkdtempSync(join(tmpdir(), "yolo-bench-tui-"));
  writeFileSync(join(dir, "hook.mjs"), HOOK);
  return { helpers, dir };
}

/** Prints the Ink-vs-JSON CPU ratio, the CPU per streamed chunk and the view's frames per second, measured in this run. */
export async function benchTuiRenderCost(log) {
  const { helpers, dir } = await floodSetup();
  try {
    const modes = { json: ["--json"], ink: ["--tui"], verbose: ["--tui", "--verbose"] };
    const results = { json: [], ink: [], verbose: [] };
    const short = { json: [], ink: [], verbose: [] };
    // Interleaved rounds, so drift on a shared machine hits every mode alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [mode, flags] of Object.entries(modes)) {
        results[mode].push(await measureFlood(helpers, dir, flags));
        short[mode].push(await measureFlood(helpers, dir, flags, SHORT_TOKENS));
      }
    }
    const cpu = (mode) => median(results[mode].map((r) => r.cpuMs));
    // Per round, so a slow round's two sizes are compared with each other; the median of the rounds.
    const perChunk = (mode) => median(results[mode].map((r, i) => (r.cpuMs - short[mode][i].cpuMs) / (4 * (FLOOD_TOKENS - SHORT_TOKENS))));
    const fps = (mode) => median(results[mode].map((r) => r.frames / (r.wallMs / 1000)));
    const peak = (mode) => median(results[mode].map((r) => r.peakPerSecond));
    const kb = (mode) => median(results[mode].map((r) => r.bytes)) / 1e3;
    const view = (mode) =>
      `${cpu(mode).toFixed(0).padStart(6)} ms CPU = ${(cpu(mode) / cpu("json")).toFixed(2)}× --json; renders ${fps(mode).toFixed(1)}/s over the run, ${peak(mode)}/s at most; ${kb(mode).toFixed(0)} kB drawn`;
    const tokens = FLOOD_TOKENS * 4;
    log(
      `TUI under a token flood (${tokens.toLocaleString("en-US")} tokens over 4 agents at ${FLOOD_RATE.toLocaleString("en-US")} tokens/s, each its own chunk); median of ${ROUNDS} runs, CPU of the yolo process:`,
    );
    log(`  --json          ${cpu("json").toFixed(0).padStart(6)} ms CPU`);
    log(`  Ink view        ${view("ink")}`);
    log(`  Ink --verbose   ${view("verbose")}`);
    const chunk = (mode) => `${perChunk(mode).toFixed(3)} ms`;
    log(
      `  per streamed chunk (CPU of ${FLOOD_TOKENS.toLocaleString("en-US")} − ${SHORT_TOKENS.toLocaleString("en-US")} tokens an agent, over the difference): --json ${chunk("json")}, Ink view ${chunk("ink")} (${(perChunk("ink") / perChunk("json")).toFixed(2)}×), --verbose ${chunk("verbose")} (${(perChunk("verbose") / perChunk("json")).toFixed(2)}×)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
