import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { readProjectText } from "../secrets/project-read.js";
import type { TestCase, TestStatus } from "./parsers/types.js";
import { xmlAttribute } from "./xml-attribute.js";

const MAX_REPORT_BYTES = 20_000_000;
const SKIP_DIRS = new Set(["node_modules", ".git", ".yolo"]);

/** A project-relative glob (`*`, `**`, `?`) as a regular expression over POSIX paths. */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  const g = glob.replace(/^\.\//, "");
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === "*" && g[i + 1] === "*") {
      out += g[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += g[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Project-relative files matching any of `globs`, in name order; `modifiedSince` (ms) drops reports older than the run. */
export async function findReports(root: string, globs: string[], modifiedSince = 0): Promise<string[]> {
  const patterns = globs.map(globToRegExp);
  const found: string[] = [];
  const walk = async (rel: string, depth: number) => {
    if (depth > 20) return;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !SKIP_DIRS.has(e.name)) await walk(child, depth + 1);
      else if (e.isFile() && patterns.some((p) => p.test(child))) {
        const stat = await fs.stat(path.join(root, child)).catch(() => null);
        if (stat && stat.mtimeMs >= modifiedSince && stat.size <= MAX_REPORT_BYTES) found.push(child);
      }
    }
  };
  await walk("", 0);
  return found.sort();
}

const TESTCASE = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
const SUITE_OPEN = /<testsuite\b([^>]*?)>/g;

/**
 * The test cases of one JUnit XML document (Maven Surefire, Gradle, pytest --junitxml, node's junit reporter…).
 * A case's id is `classname > name` (or the enclosing suite's name when there is no classname).
 */
export function parseJUnitXml(xml: string): TestCase[] {
  const suites = [...xml.matchAll(SUITE_OPEN)].map((m) => ({ at: m.index ?? 0, name: xmlAttribute(m[1], "name") }));
  const cases: TestCase[] = [];
  for (const m of xml.matchAll(TESTCASE)) {
    const name = xmlAttribute(m[1], "name") ?? "";
    const suite = [...suites].reverse().find((s) => s.at < (m.index ?? 0))?.name ?? null;
    const classname = xmlAttribute(m[1], "classname");
    const owner = classname && classname !== "test" ? classname : suite;
    const body = m[3] ?? "";
    const status: TestStatus = /<(failure|error)\b/.test(body) ? "failed" : /<skipped\b/.test(body) ? "skipped" : "passed";
    cases.push({ id: owner ? `${owner} > ${name}` : name, status });
  }
  return cases;
}

/** Every test case in the reports `globs` match (written since `modifiedSince`); null when there are none. */
export async function readJUnitReports(root: string, globs: string[], modifiedSince = 0): Promise<TestCase[] | null> {
  const files = await findReports(root, globs, modifiedSince);
  const cases: TestCase[] = [];
  for (const file of files) {
    // A report is the project's file read for the model: no link out of the project (the gate's command wrote it).
    const read = readProjectText(root, file, MAX_REPORT_BYTES);
    const xml = read.ok ? read.text : "";
    cases.push(...parseJUnitXml(xml));
  }
  return files.length ? cases : null;
}

// Maven Surefire writes its reports here whatever the gate's config says (`<modules>` one level down).
const SUREFIRE = ["target/surefire-reports/TEST-*.xml", "*/target/surefire-reports/TEST-*.xml"];

/**
 * The JUnit reports a gate's run is read from: the gate's `reports`, else Surefire's for a Maven command (its XML is
 * written on every `mvn test`, so a gate without `reports` configured is still read test by test).
 */
export function reportGlobs(command: string, reports: string[] | undefined): string[] {
  if (reports?.length) return reports;
  return /(?:^|[\s;&|(/])mvnw?\s/.test(` ${command} `) ? SUREFIRE : [];
}
