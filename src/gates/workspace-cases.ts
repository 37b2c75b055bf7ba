import { cargoWorkspace, nodeWorkspaces } from "./detect/workspaces.js";
import { parseCargoTest } from "./parsers/cargo.js";
import type { TestCase } from "./parsers/types.js";
import { testCasesFromOutput } from "./test-cases.js";

// npm's banner before each package's script: `> @x/core@1.0.0 test` (only for a package with a name and version).
const NPM_BANNER = /^> ((?:@[^@\s/]+\/)?[^@\s/]+)@\S+ \S+\s*$/;
// cargo's line before each test binary: `Running unittests src/lib.rs (target/debug/deps/core-1a2b…)`, `Doc-tests core`.
const CARGO_BANNER = /^\s*(?:Running .*\(\S*?deps[/\\]([A-Za-z0-9_]+)-[0-9a-f]+(?:\.exe)?\)|Doc-tests (\S+))\s*$/;

/**
 * Per-test results of a monorepo's run, each named `<workspace> › <test>`: npm prints each workspace's name before
 * its output and cargo names each test binary's crate, so a test is tied to its package (two packages' tests of the
 * same name stay apart, and a narrowed run's ids match the baseline's). Null when the output names no workspace.
 */
export function workspaceTestCases(output: string, root: string): TestCase[] | null {
  const lines = output.replace(/\r\n?/g, "\n").split("\n");
  if (lines.some((l) => NPM_BANNER.test(l))) {
    const names = new Set((nodeWorkspaces(root) ?? []).map((p) => p.name));
    return prefixed(
      segments(lines, (l) => NPM_BANNER.exec(l)?.[1], names),
      (text) => testCasesFromOutput(text, root),
    );
  }
  if (lines.some((l) => CARGO_BANNER.test(l))) {
    // A test binary's file name spells the crate with `_` for `-`.
    const crates = new Map((cargoWorkspace(root) ?? []).map((p) => [p.name.replace(/-/g, "_"), p.name]));
    const banner = (l: string) => {
      const m = CARGO_BANNER.exec(l);
      return m ? (crates.get(m[1] ?? m[2]) ?? "") : undefined;
    };
    return prefixed(segments(lines, banner, new Set(crates.values())), (text) => parseCargoTest(text)?.tests ?? null);
  }
  return null;
}

// The output cut at each banner line (which starts its segment), each segment named when its package is known.
function segments(lines: string[], banner: (line: string) => string | undefined, known: Set<string>): { name: string | null; text: string }[] {
  const out: { name: string | null; lines: string[] }[] = [{ name: null, lines: [] }];
  for (const line of lines) {
    const name = banner(line);
    if (name !== undefined) out.push({ name: known.has(name) ? name : null, lines: [] });
    out[out.length - 1].lines.push(line);
  }
  return out.map((s) => ({ name: s.name, text: s.lines.join("\n") }));
}

function prefixed(parts: { name: string | null; text: string }[], read: (text: string) => TestCase[] | null): TestCase[] | null {
  if (!parts.some((s) => s.name !== null)) return null;
  const cases = parts.flatMap((s) => (read(s.text) ?? []).map((c) => (s.name ? { ...c, id: `${s.name} › ${c.id}` } : c)));
  return cases.length ? cases : null;
}
