import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { matrixProject, matrixSandbox, type MatrixProject, PYTEST_NO_PLUGINS } from "../../helpers/gate-matrix.js";
import { toolchain } from "../../helpers/toolchain.js";

// A gate never takes a result from a cache the agents could write. Each route plants a cache entry that holds the
// result of code that is not in the tree — a wrong `add` with a bytecode file compiled from a right one, a Go test
// whose cached pass no longer holds — and the gate must fail as the code does. Each has a control showing the plant
// is one Python (or go) would otherwise take.
const projects: MatrixProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});
const project = (prefix: string, files: Record<string, string>) => {
  const p = matrixProject(prefix, files);
  projects.push(p);
  return p;
};

const WRONG = "def add(a, b):\n    return a - b\n";
// The same length as WRONG, so only the content differs.
const RIGHT = "def add(a, b):\n    return a + b\n";
const PYTHON = {
  "calc.py": WRONG,
  "tests/__init__.py": "",
  "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
};

// A bytecode file of RIGHT that Python loads without checking it against calc.py (PEP 552's unchecked hash).
function plantBytecode(p: MatrixProject, pycPath: string): void {
  const source = path.join(p.root, "right-calc.py");
  fs.writeFileSync(source, RIGHT);
  fs.mkdirSync(path.dirname(pycPath), { recursive: true });
  const compile =
    "import py_compile,sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)";
  execFileSync("python3", ["-c", compile, source, pycPath]);
  fs.rmSync(source);
}
const pycName = () => `calc.${execFileSync("python3", ["-c", "import sys; print(sys.implementation.cache_tag)"], { encoding: "utf8" }).trim()}.pyc`;

describe("Python bytecode and pytest's cache", () => {
  it.runIf(toolchain("pytest", ["python3", "-m", "pytest", "--version"]))(
    "a planted __pycache__ of a right calc.py does not pass the gate on a wrong one, in the sandbox or not",
    async () => {
      const p = project("pyc-tree", PYTHON);
      plantBytecode(p, path.join(p.root, "__pycache__", pycName()));
      // Control: outside the gate, Python takes the planted bytecode and the wrong code passes.
      execFileSync("python3", ["-c", "from calc import add; assert add(2, 3) == 5"], { cwd: p.root });
      const bare = await p.gate("python3 -m pytest -q", { sandbox: { kind: "none" }, env: PYTEST_NO_PLUGINS });
      expect(bare.result.passed, bare.result.tail).toBe(false);
      const run = await p.gate("python3 -m pytest -q", { env: PYTEST_NO_PLUGINS });
      expect(run.result.passed, run.result.tail).toBe(false);
      expect(run.tests).toEqual([{ id: "tests/test_calc.py::test_add", status: "failed" }]);
      // Nor does the gate write bytecode or pytest's cache into the project.
      expect(fs.existsSync(path.join(p.root, "tests", "__pycache__"))).toBe(false);
      expect(fs.existsSync(path.join(p.root, ".pytest_cache"))).toBe(false);
    },
    120_000,
  );

  it.runIf(matrixSandbox.kind === "bwrap" && toolchain("pytest", ["python3", "-m", "pytest", "--version"]))(
    "bytecode planted in the cache the model's commands share does not pass the gate either",
    async () => {
      const p = project("pyc-shared", PYTHON);
      // The sandbox's Python cache as the model's run_command writes it: .yolo/cache/python/pycache, mirroring the root.
      plantBytecode(p, path.join(p.stateDir, "cache", "python", "pycache", p.root.slice(1), pycName()));
      const run = await p.gate("python3 -m pytest -q", { env: PYTEST_NO_PLUGINS });
      expect(run.result.passed, run.result.tail).toBe(false);
      // Control: the right code passes the same gate.
      p.write({ "calc.py": RIGHT });
      expect((await p.gate("python3 -m pytest -q", { env: PYTEST_NO_PLUGINS })).result.passed).toBe(true);
    },
    120_000,
  );
});

// A test that reads its verdict through a raw system call: go's test cache does not see the read, so a cached pass
// outlives a change to the file. Two gate runs with no source change, the verdict file flipped between them.
const GO = {
  "go.mod": "module example.com/flip\n\ngo 1.19\n",
  "flip_test.go": `package flip

import (
	"syscall"
	"testing"
)

func TestVerdict(t *testing.T) {
	fd, err := syscall.Open("verdict.txt", syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	buf := make([]byte, 4)
	n, _ := syscall.Read(fd, buf)
	if string(buf[:n]) != "pass" {
		t.Fatalf("verdict %q", buf[:n])
	}
}
`,
  "verdict.txt": "pass",
};

describe("Go's test cache", () => {
  it.runIf(toolchain("go", ["go", "version"]))(
    "a cached pass is not reused: the second gate run runs the test again and fails",
    async () => {
      const p = project("go-count", GO);
      const first = await p.gate("go test ./...");
      expect(first.result.passed, first.result.tail).toBe(true);
      p.write({ "verdict.txt": "fail" });
      const second = await p.gate("go test ./...");
      expect(second.result.tail).not.toContain("(cached)");
      expect(second.result.passed, second.result.tail).toBe(false);
    },
    300_000,
  );

  it.runIf(toolchain("go", ["go", "version"]))(
    "control: go itself would have answered from its cache",
    async () => {
      const p = project("go-cached", GO);
      const cache = path.join(p.root, ".gocache");
      const go = () =>
        execFileSync("go", ["test", "./..."], { cwd: p.root, encoding: "utf8", env: { ...process.env, GOCACHE: cache, GOFLAGS: "-mod=mod", GOPROXY: "off" } });
      go();
      p.write({ "verdict.txt": "fail" });
      expect(go()).toContain("(cached)");
    },
    300_000,
  );
});
