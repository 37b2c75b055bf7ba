#!/usr/bin/env node
// Shim only: the CLI lives in dist/ (built by `npm run build`). Keep this file tiny so start-up stays cheap.
// `yolo --version` alone is answered here, from package.json, without loading the CLI at all.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // A reader that closed the pipe early (`yolo --version | true`) is not an error.
  process.stdout.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
  });
  process.stdout.write(`${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version}\n`);
} else {
  import("../dist/cli/main.js").then((m) => m.main(process.argv)).catch((error) => {
    process.stderr.write(`yolo: could not start: ${error?.stack ?? error}\nIs the package built? Run \`npm run build\`.\n`);
    process.exitCode = 70;
  });
}
