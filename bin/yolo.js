#!/usr/bin/env node
// Shim only: the CLI lives in dist/ (built by `npm run build`). Keep this file tiny so start-up stays cheap.
import("../dist/cli/main.js").then((m) => m.main(process.argv)).catch((error) => {
  process.stderr.write(`yolo: could not start: ${error?.stack ?? error}\nIs the package built? Run \`npm run build\`.\n`);
  process.exitCode = 70;
});
