// The engine knows nothing of the terminal (HOUSE-STYLE.md, "One boundary that matters"): nothing under the
// engine-side folders may import ink, react, commander or src/ui, write to stdout, or call process.exit.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const ENGINE_DIRS = ["engine", "events", "agents", "middleware", "prompt", "tools", "gates", "llm", "config", "store", "log", "git", "report", "server"];
const RULES = [
  { re: /from\s+["'](ink|react|commander)(\/[^"']*)?["']|import\(\s*["'](ink|react|commander)["']\s*\)/, why: "imports a UI/CLI package" },
  { re: /from\s+["'][./]*\/ui\/|import\(\s*["'][./]*\/ui\//, why: "imports src/ui" },
  { re: /from\s+["'][./]*\/cli\/|import\(\s*["'][./]*\/cli\//, why: "imports src/cli" },
  { re: /process\.stdout\.write|console\.log\(/, why: "writes to stdout" },
  { re: /process\.exit\(/, why: "calls process.exit" },
];

function files(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(files(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const problems = [];
for (const dir of ENGINE_DIRS) {
  let list;
  try {
    list = files(join("src", dir));
  } catch {
    continue;
  }
  for (const file of list) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      for (const rule of RULES) if (rule.re.test(line)) problems.push(`${file}:${i + 1}: ${rule.why}: ${line.trim()}`);
    });
  }
}
// Only cli/main.ts may exit.
for (const file of files("src")) {
  if (file === join("src", "cli", "main.ts")) continue;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (/process\.exit\(/.test(line)) problems.push(`${file}:${i + 1}: only src/cli/main.ts may call process.exit`);
    });
}
if (problems.length) {
  console.error(`Engine/UI boundary violated (${problems.length}):\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exitCode = 1;
} else {
  console.log("boundary check: ok");
}
