#!/usr/bin/env node
// Shim only: the CLI lives in dist/ (built by `npm run build`). Keep this file tiny so start-up stays cheap.
// It is CommonJS (bin/package.json), because Node starts its ES module loader only when something needs it: the
// answers below print without it. `yolo --version` is answered from package.json, and the help texts
// (`--help`, `help <command>`, …) from dist/help.json, which the build wrote by running the real CLI; anything
// else loads the CLI.
"use strict";
const { fstatSync, readFileSync, writeSync } = require("node:fs");
const { join } = require("node:path");

const args = process.argv.slice(2);

// Writes an answer straight to the file descriptor: creating process.stdout for a pipe loads Node's stream and net
// code (about a fifth of `node -e 0`'s time). A pipe that is full (EAGAIN) takes the rest through the stream, which
// waits for the reader; a reader that closed the pipe early (`yolo --help | head -1`) is not an error.
function answer(fd, text) {
  let rest = Buffer.from(text);
  try {
    while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
  } catch (error) {
    if (error.code === "EPIPE") return;
    if (error.code !== "EAGAIN") throw error;
    const stream = fd === 2 ? process.stderr : process.stdout;
    stream.on("error", (e) => {
      if (e.code !== "EPIPE") throw e;
    });
    stream.write(rest);
  }
}

function isTerminal(fd) {
  try {
    return fstatSync(fd).isCharacterDevice() && require("node:tty").isatty(fd);
  } catch {
    return false;
  }
}

// The precomputed answer to exactly these arguments, or null (not built, another form, or a terminal narrower than
// the 80 columns the help is laid out for, where commander wraps it to fit).
function precomputedHelp() {
  let help;
  try {
    help = JSON.parse(readFileSync(join(__dirname, "..", "dist", "help.json"), "utf8"));
  } catch {
    return null;
  }
  const found = help?.answers?.[args.join("\u0000")];
  if (typeof found?.text !== "string") return null;
  const fd = found.stream === "stderr" ? 2 : 1;
  // Only a terminal has a width; asking a pipe for one would create the stream this file avoids, and loading node:tty
  // costs as much again, so only a character device (a terminal, or /dev/null) is asked.
  const stream = isTerminal(fd) ? (fd === 2 ? process.stderr : process.stdout) : null;
  return stream && stream.columns < help.width ? null : { ...found, fd };
}

// The command, the words after it and the directory `-C`/`--cwd` names (in any of commander's forms, before or after
// the command, as commander reads it), read once.
function commandLine() {
  let cwd = ".";
  let at = -1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (a === "-C" || a === "--cwd") {
      i++;
      cwd = args[i] ?? cwd;
    } else if (a.startsWith("--cwd=")) cwd = a.slice("--cwd=".length);
    else if (a.startsWith("-C")) cwd = a.slice(2);
    else if (at < 0 && !a.startsWith("-")) at = i;
  }
  return at < 0 ? { command: null, rest: [], cwd } : { command: args[at], rest: args.slice(at + 1), cwd };
}
const line = commandLine();

// The commands that only read (`threads`, `show`, `history`, `graph`; not `threads rm` or `threads prune`) run in the
// light CLI: one CommonJS file compiled from a V8 code cache, without Node's ES module loader
// (dist/cli/light-loader.cjs). Anything else, or what the light CLI hands off unprinted, runs in the full CLI.
function lightCommand() {
  const { command, rest } = line;
  if (command === "threads") return rest.some((a) => a === "rm" || a === "prune") ? null : command;
  return command === "show" || command === "history" || command === "graph" ? command : null;
}

const RUN_COMMANDS = new Set(["run", "resume", "agent", "chat"]);

// `run`, `resume`, `agent` and `chat` run in the run bundle (dist/cli/run.cjs: the whole CLI as one CommonJS file,
// compiled from the same code cache) unless they may draw the live view, which stays an ES module (Ink's layout engine
// awaits at its top level): a terminal on stdout, or `--tui` anywhere in the arguments, takes the full CLI.
function runCommand() {
  if (!RUN_COMMANDS.has(line.command)) return null;
  return args.includes("--tui") || require("node:tty").isatty(1) ? null : line.command;
}

// `run`, `agent` and `chat` (a new thread) and `resume` begin with git reads and bubblewrap's trial: started here
// (dist/cli/early-probes.cjs), while the process is small and before the CLI compiles, which the CLI then takes. The
// directory is read from the arguments: the CLI takes them only for the root, mode and PATH it resolved itself.
function startEarlyProbes() {
  if (!RUN_COMMANDS.has(line.command) || line.rest.some((a) => a === "-h" || a === "--help")) return;
  require("../dist/cli/early-probes.cjs").startEarlyProbes(line.cwd, line.command === "resume" ? "resume" : "start");
}

function lightCli(command, fullCli) {
  return new Promise((done) => done(require("../dist/cli/light-loader.cjs").runLightCli(process.argv, join(__dirname, "..", "dist"), command))).catch(
    (error) => {
      if (error?.[Symbol.for("yolo.hand-off")] === true) return fullCli();
      throw error;
    },
  );
}

if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  answer(1, `${JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).version}\n`);
} else {
  // Every help form holds --help, -h or help, or is no arguments at all: other commands skip reading the file.
  const helpForm = args.length === 0 || (args.length <= 3 && args.some((a) => a === "--help" || a === "-h" || a === "help"));
  const help = helpForm ? precomputedHelp() : null;
  if (help) {
    answer(help.fd, help.text);
    process.exitCode = help.exitCode;
  } else {
    const light = lightCommand() ?? runCommand();
    const fullCli = () => import("../dist/cli/main.js").then((m) => m.main(process.argv));
    new Promise((done) => done(startEarlyProbes()))
      .then(() => (light ? lightCli(light, fullCli) : fullCli()))
      .catch((error) => {
        process.stderr.write(`yolo: could not start: ${error?.stack ?? error}\nIs the package built? Run \`npm run build\`.\n`);
        process.exitCode = 70;
      });
  }
}
