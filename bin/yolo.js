#!/usr/bin/env node
// Shim only: the CLI lives in dist/ (built by `npm run build`). Keep this file tiny so start-up stays cheap.
// It is CommonJS (bin/package.json), because Node starts its ES module loader only when something needs it: the
// answers below print without it. `yolo --version` is answered from package.json, and the help texts
// (`--help`, `help <command>`, …) from dist/help.json, which the build wrote by running the real CLI; anything
// else loads the CLI.
"use strict";
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const args = process.argv.slice(2);

// A reader that closed the pipe early (`yolo --help | head -1`) is not an error.
function tolerateClosedPipe(stream) {
  stream.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
  });
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
  const answer = help?.answers?.[args.join("\u0000")];
  if (typeof answer?.text !== "string") return null;
  const stream = answer.stream === "stderr" ? process.stderr : process.stdout;
  return stream.isTTY && stream.columns < help.width ? null : { ...answer, stream };
}

if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  tolerateClosedPipe(process.stdout);
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")).version}\n`);
} else {
  const help = args.length <= 3 ? precomputedHelp() : null;
  if (help) {
    tolerateClosedPipe(help.stream);
    help.stream.write(help.text);
    process.exitCode = help.exitCode;
  } else {
    import("../dist/cli/main.js")
      .then((m) => m.main(process.argv))
      .catch((error) => {
        process.stderr.write(`yolo: could not start: ${error?.stack ?? error}\nIs the package built? Run \`npm run build\`.\n`);
        process.exitCode = 70;
      });
  }
}
