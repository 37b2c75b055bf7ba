import type { SimpleCommand } from "../shell-parse.js";

/** The program's base name: `/usr/bin/curl` and `./curl` are `curl`. */
export function baseName(program: string): string {
  return program.slice(program.lastIndexOf("/") + 1);
}

/**
 * Whether a policy pattern matches a simple command. A pattern is words separated by spaces, matched against the
 * start of argv (so `git status` matches `git status --short`); a final `$` requires argv to end there. In a word,
 * `*` matches any characters except `/`, `?` one such character, and `**` any characters at all; a word that is
 * exactly `**` matches any number of arguments (`rm ** /` matches `rm -rf /` and `rm -r -f /`). The program word,
 * unless it contains `/`, is compared with the program's base name (`rm` matches `/bin/rm`). A leading `|` makes
 * the pattern match only a command that reads a pipe (`| sh` matches the `sh` of `curl … | sh`).
 */
export function matchesPattern(pattern: string, cmd: Pick<SimpleCommand, "argv" | "piped">): boolean {
  let words = pattern.trim().split(/\s+/).filter(Boolean);
  if (words[0] === "|") {
    if (!cmd.piped) return false;
    words = words.slice(1);
  }
  if (words.length === 0 || cmd.argv.length === 0) return false;
  const [program, ...rest] = words;
  const argv0 = program.includes("/") ? cmd.argv[0] : baseName(cmd.argv[0]);
  if (!globWord(program).test(argv0)) return false;
  return matchWords(rest, cmd.argv.slice(1));
}

// Matches pattern words against argv from the start; `**` spans any number of arguments, `$` demands the end.
function matchWords(words: string[], argv: string[]): boolean {
  if (words.length === 0) return true;
  const [first, ...rest] = words;
  if (first === "$") return argv.length === 0 && rest.length === 0;
  if (first === "**") {
    for (let skip = 0; skip <= argv.length; skip++) if (matchWords(rest, argv.slice(skip))) return true;
    return false;
  }
  return argv.length > 0 && globWord(first).test(argv[0]) && matchWords(rest, argv.slice(1));
}

const globCache = new Map<string, RegExp>();
function globWord(word: string): RegExp {
  let re = globCache.get(word);
  if (!re) {
    let source = "";
    for (let i = 0; i < word.length; i++) {
      const c = word[i];
      if (c === "*" && word[i + 1] === "*") {
        source += ".*";
        i++;
      } else if (c === "*") source += "[^/]*";
      else if (c === "?") source += "[^/]";
      else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    re = new RegExp(`^${source}$`, "s");
    globCache.set(word, re);
  }
  return re;
}

/** Quotes a word for a shell string, so a command rebuilt from argv parses back to the same words. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
