import type { TestCase, TestStatus } from "../parsers/types.js";
import { collectedUnder } from "../parsers/pytest-ids.js";
import { MAX_REPORT_TESTS } from "./jest-json.js";
import { seeCommand } from "./script.js";
import type { StructuredReading, StructuredRunner } from "./types.js";
import { xmlAttribute } from "../xml-attribute.js";

// `pytest`, `py.test`, `python3 -m pytest`, under `uv run` / `poetry run` / `pipenv run` / `hatch run`.
const PYTEST = /^(?:(?:uv|poetry|pipenv|hatch)\s+run\s+)?(?:pytest|py\.test|python3?(?:\.\d+)?\s+-m\s+pytest)(?:\s|$)/;

/**
 * pytest: its JUnit XML beside the terminal report, asked for in PYTEST_ADDOPTS (read by pytest however it starts).
 * Only for one pytest command (`pytest -q`, `uv run pytest`): two sessions in one gate would write one report over the
 * other, so a chained command, `make test` or tox is read from its printed output, every session's summary. xunit1
 * names each case's file, so ids are pytest's node ids, as the printed-output reader spells them.
 */
export const pytestRunner: StructuredRunner = {
  runner: "pytest",
  command(command, scripts) {
    const seen = seeCommand(command, scripts);
    if (!seen || !PYTEST.test(seen.line) || /--junit-?xml\b/.test(seen.line)) return null;
    return command;
  },
  env(env, reportPath) {
    return { PYTEST_ADDOPTS: [env.PYTEST_ADDOPTS, `--junitxml=${reportPath} -o junit_family=xunit1`].filter(Boolean).join(" ") };
  },
  read: (text) => readPytestJUnit(text),
};

const TESTCASE = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;

/**
 * pytest's xunit1 report: a case's node id is its file, the class path left of its module in `classname`, and its
 * name. An expected failure (`<skipped type="pytest.xfail">`) passes, as pytest counts it; a strict XPASS is a
 * `<failure>`; a file that failed to collect (empty classname) fails the tests under it (`unit`).
 */
export function readPytestJUnit(xml: string): StructuredReading | null {
  if (!/<testsuites?\b/.test(xml)) return null;
  const tests: TestCase[] = [];
  for (const m of xml.matchAll(TESTCASE)) {
    if (tests.length >= MAX_REPORT_TESTS) break;
    const file = xmlAttribute(m[1], "file");
    const name = xmlAttribute(m[1], "name") ?? "";
    const classname = xmlAttribute(m[1], "classname") ?? "";
    const body = m[3] ?? "";
    if (file && classname === "") {
      tests.push({ id: file, status: "failed", unit: collectedUnder(file) });
      continue;
    }
    const test: TestCase = { id: nodeId(file, classname, name), status: statusOf(body) };
    if (/<rerunFailure\b/.test(body)) test.flaky = true;
    tests.push(test);
  }
  return { tests };
}

function statusOf(body: string): TestStatus {
  if (/<(?:failure|error)\b/.test(body)) return "failed";
  const skipped = /<skipped\b([^>]*)/.exec(body);
  if (!skipped) return "passed";
  return xmlAttribute(skipped[1], "type") === "pytest.xfail" ? "passed" : "skipped";
}

// `tests/test_a.py` + `tests.test_a.TestK` + `test_m` → `tests/test_a.py::TestK::test_m`.
function nodeId(file: string | null, classname: string, name: string): string {
  if (!file) return `${classname}::${name}`;
  const module = file.replace(/\.py$/, "").split("/").join(".");
  const classes = classname.startsWith(`${module}.`) ? classname.slice(module.length + 1).split(".") : [];
  return [file, ...classes, name].join("::");
}
