/**
 * A small .gitignore matcher for folders that are not git repositories (in a repository, `git ls-files` decides).
 * Patterns are matched segment by segment with a linear wildcard matcher, never compiled to regular expressions,
 * so a hostile .gitignore (huge lines, thousands of stars) costs time proportional to its size, not exponential.
 */

type Token = { kind: "star" } | { kind: "any" } | { kind: "char"; c: string } | { kind: "class"; test: (c: string) => boolean };

interface Rule {
  /** Pattern segments; `**` stands for any number of path segments. */
  segments: Array<Token[] | null>;
  globstar: boolean[];
  negated: boolean;
  dirOnly: boolean;
}

/** The rules of one .gitignore, relative to the folder holding it. */
export interface IgnoreRules {
  /** The folder (project-relative POSIX, "" for the root). */
  base: string;
  rules: Rule[];
}

/** Lines longer than this are skipped: no real pattern is, and matching them would cost time for nothing. */
const MAX_LINE_CHARS = 1024;
/** Rules kept from one file; the rest are ignored (a real .gitignore has tens or hundreds). */
const MAX_RULES = 1000;

/** Parses a .gitignore's text; malformed, over-long and surplus lines are dropped, never an error. */
export function parseGitignore(text: string, base: string): IgnoreRules {
  const rules: Rule[] = [];
  for (const raw of text.split("\n")) {
    if (rules.length >= MAX_RULES) break;
    if (raw.length > MAX_LINE_CHARS) continue;
    const rule = parseLine(raw.replace(/\r$/, ""));
    if (rule) rules.push(rule);
  }
  return { base, rules };
}

function parseLine(raw: string): Rule | null {
  let line = raw.replace(/(?<!\\)\s+$/, "");
  if (line === "" || line.startsWith("#")) return null;
  let negated = false;
  if (line.startsWith("!")) {
    negated = true;
    line = line.slice(1);
  } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
    line = line.slice(1);
  }
  const dirOnly = line.endsWith("/");
  if (dirOnly) line = line.replace(/\/+$/, "");
  if (line === "") return null;
  // No slash before the end: the pattern matches at any depth below the .gitignore's folder.
  const anchored = line.includes("/");
  const parts = line
    .replace(/^\//, "")
    .split("/")
    .filter((p) => p !== "");
  if (!anchored) parts.unshift("**");
  const globstar = parts.map((p) => p === "**");
  return { segments: parts.map((p) => (p === "**" ? null : tokenize(p))), globstar, negated, dirOnly };
}

// Tokens of one segment pattern: `*`, `?`, `[a-z]` / `[!a-z]`, `\x`, literal characters.
function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") {
      if (tokens[tokens.length - 1]?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") tokens.push({ kind: "any" });
    else if (c === "\\" && i + 1 < pattern.length) tokens.push({ kind: "char", c: pattern[++i] });
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end === -1) tokens.push({ kind: "char", c });
      else {
        tokens.push({ kind: "class", test: charClass(pattern.slice(i + 1, end)) });
        i = end;
      }
    } else tokens.push({ kind: "char", c });
  }
  return tokens;
}

function charClass(body: string): (c: string) => boolean {
  const negate = body.startsWith("!") || body.startsWith("^");
  const set = negate ? body.slice(1) : body;
  const ranges: Array<[string, string]> = [];
  for (let i = 0; i < set.length; i++) {
    if (set[i + 1] === "-" && i + 2 < set.length) {
      ranges.push([set[i], set[i + 2]]);
      i += 2;
    } else ranges.push([set[i], set[i]]);
  }
  return (c) => ranges.some(([lo, hi]) => c >= lo && c <= hi) !== negate;
}

// Classic linear wildcard matching with one backtrack point (the last star): O(pattern × name) at worst.
function matchSegment(tokens: Token[], name: string): boolean {
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < name.length) {
    const t = tokens[p];
    if (t && t.kind !== "star" && (t.kind === "any" || (t.kind === "char" ? t.c === name[s] : t.test(name[s])))) {
      p++;
      s++;
    } else if (t?.kind === "star") {
      starP = p++;
      starS = s;
    } else if (starP >= 0) {
      p = starP + 1;
      s = ++starS;
    } else return false;
  }
  while (tokens[p]?.kind === "star") p++;
  return p === tokens.length;
}

// Pattern segments against path segments, `**` spanning any number of them; memoised, so O(pattern × path).
function matchPath(rule: Rule, parts: string[]): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (parts.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === rule.segments.length) result = j === parts.length;
    else if (rule.globstar[i]) result = go(i + 1, j) || (j < parts.length && go(i, j + 1));
    else result = j < parts.length && matchSegment(rule.segments[i] as Token[], parts[j]) && go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}

/**
 * Whether `rel` (project-relative POSIX) is ignored by the given .gitignore files, ordered from the root down:
 * the last matching rule wins, so a deeper file and a later `!pattern` override earlier ones. The caller skips
 * ignored folders entirely, as git does (a file inside an ignored folder cannot be re-included).
 */
export function isIgnored(stack: IgnoreRules[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of stack) {
    if (base !== "" && !rel.startsWith(`${base}/`)) continue;
    const parts = (base === "" ? rel : rel.slice(base.length + 1)).split("/");
    for (const rule of rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.negated !== ignored) continue;
      if (matchPath(rule, parts)) ignored = !rule.negated;
    }
  }
  return ignored;
}
