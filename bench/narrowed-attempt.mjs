// A failing fix attempt narrowed to what dev changed, against the whole suite, on generated single projects of
// MODULES modules with TESTS tests each (pytest and vitest), dev having broken one module. Both commands run alternately
// in the same process and run, with yolo's gate runner; the figure is the ratio of their median times.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runShell } from "../dist/exec/run-shell.js";
import { scopeSingleProject } from "../dist/gates/single-scope.js";

const MODULES = 50;
const TESTS = 10;
const ROUNDS = 3;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function pytestProject() {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-pytest-"));
  mkdirSync(join(root, "tests"));
  writeFileSync(join(root, "pytest.ini"), "[pytest]\naddopts = -p no:cacheprovider\n");
  writeFileSync(join(root, "tests", "conftest.py"), "import sys, os\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n");
  for (let m = 0; m < MODULES; m++) {
    writeFileSync(join(root, `mod_${m}.py`), `def f(x):\n    return x + ${m}\n`);
    const tests = Array.from({ length: TESTS }, (_, t) => `def test_${t}():\n    assert f(${t}) == ${t + m}\n`).join("\n");
    writeFileSync(join(root, "tests", `test_mod_${m}.py`), `from mod_${m} import f\n\n${tests}`);
  }
  // dev's change: one module broken.
  writeFileSync(join(root, "mod_7.py"), "def f(x):\n    return x - 7\n");
  // The floor: the same pytest on one file of one empty test (interpreter, pytest, this machine's plugins).
  mkdirSync(join(root, "floor"));
  writeFileSync(join(root, "floor", "test_floor.py"), "def test_nothing():\n    pass\n");
  const floor = "pytest -rA -p no:unraisableexception floor/test_floor.py";
  return { root, whole: "pytest -rA tests", changed: ["mod_7.py"], command: "pytest -rA", floor };
}

function vitestProject() {
  const root = mkdtempSync(join(tmpdir(), "yolo-bench-vitest-"));
  mkdirSync(join(root, "src"));
  mkdirSync(join(root, "test"));
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench", type: "module", scripts: { test: "vitest run" } }));
  symlinkSync(resolve("node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "vitest.config.js"), "export default {};\n");
  for (let m = 0; m < MODULES; m++) {
    writeFileSync(join(root, "src", `mod_${m}.js`), `export const f = (x) => x + ${m};\n`);
    const tests = Array.from({ length: TESTS }, (_, t) => `it("t${t}", () => expect(f(${t})).toBe(${t + m}));`).join("\n");
    writeFileSync(join(root, "test", `mod_${m}.test.js`), `import { expect, it } from "vitest";\nimport { f } from "../src/mod_${m}.js";\n${tests}\n`);
  }
  writeFileSync(join(root, "src", "mod_7.js"), "export const f = (x) => x - 7;\n");
  return { root, whole: "npx --no-install vitest run", changed: ["src/mod_7.js"], command: "npm test" };
}

async function compare(print, label, project) {
  const { root } = project;
  const scoped = scopeSingleProject(
    { name: "test", command: project.command, required: true, timeoutS: 600 },
    { root, mode: "changed", configured: false, change: { ok: true, files: project.changed } },
  );
  if (!scoped?.scope) throw new Error(`${label}: the change was not narrowed`);
  const options = { cwd: root, timeoutS: 600, env: { PATH: process.env.PATH, HOME: process.env.HOME }, capBytes: 64 * 1024 };
  const whole = [];
  const narrowed = [];
  const floor = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (project.floor) floor.push((await runShell(project.floor, options)).durationMs);
    const a = await runShell(project.whole, options);
    const b = await runShell(scoped.gate.command, options);
    if (a.exitCode === 0 || b.exitCode === 0)
      throw new Error(`${label}: both runs must fail on the broken module (whole: exit ${a.exitCode}, narrowed: exit ${b.exitCode}): ${b.output.slice(-300)}`);
    whole.push(a.durationMs);
    narrowed.push(b.durationMs);
  }
  const w = median(whole);
  const n = median(narrowed);
  print(`  ${label}: whole suite ${(w / 1000).toFixed(2)} s, narrowed (${scoped.scope.units.join(", ")}) ${(n / 1000).toFixed(2)} s: ${(n / w).toFixed(2)}×`);
  if (floor.length > 0)
    print(`  ${label}: start-up floor (one empty test) ${(median(floor) / 1000).toFixed(2)} s: ${(median(floor) / w).toFixed(2)}× of the whole suite`);
}

export async function benchNarrowedAttempt(print) {
  print(`A failing fix attempt narrowed to the change (${MODULES} files, ${MODULES * TESTS} tests; median of ${ROUNDS} alternated runs, same run)`);
  const only = process.argv[2];
  for (const [label, make] of [
    ["pytest", pytestProject],
    ["vitest", vitestProject],
  ].filter(([l]) => !only || l === only)) {
    const project = make();
    try {
      await compare(print, label, project);
    } catch (error) {
      print(`  ${label}: not measured: ${error.message}`);
    } finally {
      rmSync(project.root, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchNarrowedAttempt((line) => console.log(line));
