import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultGates } from "../../../src/gates/detect.js";

const FIXTURES = path.resolve("tests/fixtures/ecosystems");
const brief = (root: string) => defaultGates(root).map((g) => `${g.name}: ${g.command}${g.required ? "" : " (optional)"}`);

describe("gates detected from each ecosystem's fixture", () => {
  it.each([
    ["npm", ["test: npm test", "lint: npm run lint (optional)", "typecheck: npm run typecheck (optional)"]],
    ["pnpm", ["test: pnpm test", "lint: pnpm run lint (optional)"]],
    ["yarn", ["test: yarn test", "typecheck: yarn run type-check (optional)"]],
    // `bun test` would be bun's own runner, not the project's script.
    ["bun", ["test: bun run test"]],
    ["deno", ["test: deno task test", "lint: deno task lint (optional)"]],
    ["pytest", ["test: pytest -rA"]],
    ["unittest", ["test: python3 -m unittest discover -v -s tests"]],
    ["go", ["test: go test -v ./...", "vet: go vet ./... (optional)"]],
    ["cargo", ["test: cargo test"]],
    ["make", ["test: make test", "lint: make lint (optional)"]],
    ["gradle", ["test: ./gradlew test --console=plain"]],
    ["maven", ["test: mvn -B -ntp -o test"]],
  ])("%s", (eco, expected) => {
    expect(brief(path.join(FIXTURES, eco))).toEqual(expected);
  });

  it("gives Maven and Gradle gates the JUnit XML reports their runners write", () => {
    expect(defaultGates(path.join(FIXTURES, "maven"))[0].reports).toEqual(["target/surefire-reports/*.xml"]);
    expect(defaultGates(path.join(FIXTURES, "gradle"))[0].reports).toEqual(["build/test-results/**/*.xml", "*/build/test-results/**/*.xml"]);
  });
});

describe("detection rules", () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "yolo-detect-"));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, text = "") => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };

  it("lets the packageManager field win over a lockfile", () => {
    write("package.json", JSON.stringify({ packageManager: "yarn@4.1.0", scripts: { test: "jest" } }));
    write("pnpm-lock.yaml");
    expect(brief(root)).toEqual(["test: yarn test"]);
  });

  it("picks the manager from the lockfile without the field", () => {
    write("package.json", JSON.stringify({ scripts: { test: "jest" } }));
    write("pnpm-lock.yaml");
    expect(brief(root)).toEqual(["test: pnpm test"]);
  });

  it("runs pytest under uv when the project is uv-managed, and under tox when it configures tox", () => {
    write("pyproject.toml", '[project]\nname = "x"\n[dependency-groups]\ndev = ["pytest>=8", "ruff"]\n[tool.ruff]\nline-length = 100\n');
    write("uv.lock");
    expect(brief(root)).toEqual(["test: uv run pytest -rA", "ruff: uv run ruff check . (optional)"]);
    fs.rmSync(path.join(root, "uv.lock"));
    write("tox.ini", "[tox]\nenv_list = py3\n[testenv]\ncommands = pytest\n");
    expect(brief(root)).toEqual(["test: tox", "ruff: ruff check . (optional)"]);
  });

  it("falls back to unittest for test files at the root with no sign of pytest", () => {
    write("test_calc.py", "import unittest\n");
    expect(brief(root)).toEqual(["test: python3 -m unittest discover -v"]);
    write("requirements-dev.txt", "pytest==8.0\n");
    expect(brief(root)).toEqual(["test: pytest -rA"]);
  });

  it("adds clippy only when the crate configures it, and tests every member of a workspace", () => {
    write("Cargo.toml", '[workspace]\nmembers = ["a", "b"]\n\n[workspace.lints.clippy]\npedantic = "warn"\n');
    expect(brief(root)).toEqual(["test: cargo test --workspace", "clippy: cargo clippy --workspace --all-targets -- -D warnings (optional)"]);
  });

  it("tests each Go module when there is no root go.mod or go.work", () => {
    write("svc/api/go.mod", "module example.com/api\n");
    write("tools/go.mod", "module example.com/tools\n");
    write("node_modules/x/go.mod", "module ignored\n");
    const [test] = defaultGates(root);
    expect(test.command).toBe('status=0; for m in svc/api tools; do (cd "$m" && go test -v ./...) || status=1; done; exit $status');
    write("go.work", "go 1.19\nuse ./svc/api\nuse ./tools\n");
    expect(defaultGates(root)[0].command).toBe("go test -v ./...");
  });

  it("quotes module folder names, which the model can choose, in the Go loop", () => {
    write("a;touch pwned/go.mod", "module a\n");
    write("-b $(touch pwned2)/go.mod", "module b\n");
    const bin = path.join(root, ".bin");
    write(".bin/go", '#!/bin/sh\necho "go in $(basename "$PWD")"\n');
    fs.chmodSync(path.join(bin, "go"), 0o755);
    const [test] = defaultGates(root);
    const out = execFileSync("/bin/sh", ["-c", test.command], { cwd: root, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: "utf8" });
    expect(out).toBe("go in -b $(touch pwned2)\ngo in a;touch pwned\n");
    expect(fs.readdirSync(root).filter((f) => f.startsWith("pwned"))).toEqual([]);
  });

  it("uses the Gradle wrapper only when it exists, and mvnw likewise", () => {
    write("settings.gradle.kts", 'rootProject.name = "x"\n');
    expect(brief(root)).toEqual(["test: gradle test --console=plain"]);
    fs.rmSync(path.join(root, "settings.gradle.kts"));
    write("pom.xml", "<project><modules><module>core</module></modules></project>");
    write("mvnw", "#!/bin/sh\n");
    expect(defaultGates(root)).toEqual([
      {
        name: "test",
        command: "./mvnw -B -ntp -o test",
        required: true,
        timeoutS: 600,
        reports: ["target/surefire-reports/*.xml", "*/target/surefire-reports/*.xml"],
      },
    ]);
  });

  it("uses a Makefile only when no ecosystem gives a test command, and never a variable named test", () => {
    write("Makefile", "test := unit\ncheck:\n\ttrue\n");
    expect(brief(root)).toEqual(["test: make check"]);
    write("go.mod", "module x\n");
    expect(brief(root)).toEqual(["test: go test -v ./...", "vet: go vet ./... (optional)"]);
  });

  it("names gates by ecosystem when several share the repository", () => {
    write("package.json", JSON.stringify({ scripts: { test: "vitest run", lint: "eslint ." } }));
    write("go.mod", "module x\n");
    expect(brief(root)).toEqual(["npm-test: npm test", "go-test: go test -v ./...", "npm-lint: npm run lint (optional)", "go-vet: go vet ./... (optional)"]);
  });

  it("survives hostile manifests: directories named like files, binary junk, huge files", () => {
    fs.mkdirSync(path.join(root, "package.json"));
    write("Cargo.toml", "\u0000\u0001garbage");
    write("pyproject.toml", "x".repeat(2 * 1024 * 1024));
    write("deno.json", "{ tasks: not json");
    expect(brief(root)).toEqual(["deno-test: deno test", "cargo-test: cargo test"]);
  });
});
