// Small functions (HOUSE-STYLE.md, "Long functions are a smell even in small files"): no function under src/ runs
// over LIMIT lines unless a comment right above it says why, starting "Long on purpose:" (a reducer's switch over
// every event, a tokenizer's state machine), or it is in LONG_FUNCTIONS_ALLOWED below with the reason it still is.
// An allowed entry that is no longer long fails too, so the list only shrinks.
// Usage: node scripts/long-functions.mjs [--root <dir>]   (exit 1 and a list of problems when the rule is broken)
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const LIMIT = 80;

/** `file:function` → why it is still long. Each entry is being split; delete it when it is not long any more. */
export const LONG_FUNCTIONS_ALLOWED = {};

const REASON = /Long on purpose:/;

// Every function's name, first line and length in one file; `reasoned` when the comment above it gives the reason.
function functionsIn(file, text) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = [];
  const visit = (n) => {
    const isFunction = ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n);
    if (isFunction && n.body) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart()).line;
      const last = sf.getLineAndCharacterOfPosition(n.end).line;
      // The comment that documents a function sits above its statement: `const f = () => …`, `key: function …`.
      let anchor = n;
      if (ts.isVariableDeclaration(n.parent)) anchor = n.parent.parent?.parent ?? n.parent;
      else if (ts.isPropertyAssignment(n.parent)) anchor = n.parent;
      const comments = ts.getLeadingCommentRanges(text, anchor.getFullStart()) ?? [];
      const reasoned = comments.some((c) => REASON.test(text.slice(c.pos, c.end)));
      const name = n.name?.getText(sf) ?? (ts.isVariableDeclaration(n.parent) || ts.isPropertyAssignment(n.parent) ? n.parent.name.getText(sf) : "<anonymous>");
      found.push({ name, line: first + 1, lines: last - first + 1, reasoned });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The rule's problems under `<root>/src` (empty when it holds). */
export function checkLongFunctions(root, allowed = LONG_FUNCTIONS_ALLOWED, limit = LIMIT) {
  const problems = [];
  const stillLong = new Set();
  for (const path of sourceFiles(join(root, "src"))) {
    const file = relative(root, path).split(sep).join("/");
    for (const f of functionsIn(file, readFileSync(path, "utf8"))) {
      if (f.lines <= limit || f.reasoned) continue;
      const key = `${file}:${f.name}`;
      if (key in allowed) stillLong.add(key);
      else
        problems.push(
          `${file}:${f.line} ${f.name} is ${f.lines} lines (limit ${limit}): split it into named steps, or write the reason above it ("// Long on purpose: …")`,
        );
    }
  }
  for (const key of Object.keys(allowed))
    if (!stillLong.has(key))
      problems.push(`${key} is no longer over ${limit} lines (or is gone): remove it from LONG_FUNCTIONS_ALLOWED in scripts/long-functions.mjs`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf("--root");
  const root = at > 0 ? process.argv[at + 1] : process.cwd();
  const problems = checkLongFunctions(root);
  if (problems.length) {
    console.error(`long-function check failed (${problems.length}):`);
    for (const p of problems) console.error(`  ${p}`);
    process.exitCode = 1;
  } else {
    console.log(`long-function check: no function over ${LIMIT} lines without its reason`);
  }
}
