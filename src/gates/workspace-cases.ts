import { nodeWorkspaces } from "./detect/workspaces.js";
import type { TestCase } from "./parsers/types.js";
import { testCasesFromOutput } from "./test-cases.js";

// npm's banner before each package's script: `> @x/core@1.0.0 test` (only for a package with a name and version).
const BANNER = /^> ((?:@[^@\s/]+\/)?[^@\s/]+)@\S+ \S+\s*$/;

/**
 * Per-test results of an npm workspaces run, each named `<workspace> › <test>`: npm prints each workspace's name
 * before its output, so a test is tied to its package (two packages' tests of the same name stay apart, and a
 * narrowed run's ids match the baseline's). Null when the output names no workspace of `root`.
 */
export function workspaceTestCases(output: string, root: string): TestCase[] | null {
  const lines = output.split(/\r?\n/);
  if (!lines.some((l) => BANNER.test(l))) return null;
  const names = new Set((nodeWorkspaces(root) ?? []).map((p) => p.name));
  const segments: { name: string | null; lines: string[] }[] = [{ name: null, lines: [] }];
  for (const line of lines) {
    const name = BANNER.exec(line)?.[1];
    if (name !== undefined) segments.push({ name: names.has(name) ? name : null, lines: [] });
    segments[segments.length - 1].lines.push(line);
  }
  if (!segments.some((s) => s.name !== null)) return null;
  const cases = segments.flatMap((s) => (testCasesFromOutput(s.lines.join("\n"), root) ?? []).map((c) => (s.name ? { ...c, id: `${s.name} › ${c.id}` } : c)));
  return cases.length ? cases : null;
}
