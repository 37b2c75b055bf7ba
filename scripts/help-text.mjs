// Writes <dist>/help.json: what the real CLI prints for each help form (`--help`, `-h`, `help`, `help <command>`,
// `<command> --help`, `<command> -h`, `threads rm --help`, … and no arguments at all), so bin/yolo.js answers them
// without loading the CLI. Run by scripts/build.mjs in a child process with piped output (help is laid out for
// 80 columns, as commander does off a terminal); tests/e2e/precomputed-help.test.ts checks it against the CLI.
// Usage: node scripts/help-text.mjs <dist dir>
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dist = resolve(process.argv[2] ?? "dist");
// main() adds its stream and exit listeners once per call, which is once per process in real use.
for (const emitter of [process, process.stdout, process.stderr]) emitter.setMaxListeners(0);
const { main } = await import(pathToFileURL(join(dist, "cli", "main.js")).href);

/** Runs the CLI in this process on `args`, capturing what it writes; a form that writes to both streams is refused. */
async function capture(args) {
  const written = { stdout: "", stderr: "" };
  const saved = { stdout: process.stdout.write, stderr: process.stderr.write };
  process.stdout.write = (chunk) => ((written.stdout += chunk), true);
  process.stderr.write = (chunk) => ((written.stderr += chunk), true);
  process.exitCode = undefined;
  try {
    await main([process.execPath, "yolo", ...args]);
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  if (written.stdout && written.stderr) throw new Error(`yolo ${args.join(" ")} wrote to both stdout and stderr`);
  return { stream: written.stderr ? "stderr" : "stdout", text: written.stderr || written.stdout, exitCode };
}

/** The command names listed under "Commands:" in a help text (commander's own `help` included). */
function commandsIn(text) {
  const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(text)?.[1] ?? "";
  return section.split("\n").flatMap((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1] ?? []);
}

const forms = [[], ["--help"], ["-h"], ["help"]];
const top = await capture(["--help"]);
for (const name of commandsIn(top.text)) {
  if (name === "help") continue;
  forms.push([name, "--help"], [name, "-h"], ["help", name]);
  const sub = await capture([name, "--help"]);
  for (const child of commandsIn(sub.text)) if (child !== "help") forms.push([name, child, "--help"], [name, child, "-h"]);
}
const answers = {};
for (const args of forms) answers[args.join("\u0000")] = await capture(args);
// The shim prints these only where commander would lay them out the same: off a terminal or on one this wide.
writeFileSync(join(dist, "help.json"), `${JSON.stringify({ width: 80, answers }, null, 1)}\n`);
