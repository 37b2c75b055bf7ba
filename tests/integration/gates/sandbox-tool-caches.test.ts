import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { probeBwrap } from "../../../src/exec/sandbox.js";
import { runGatesWithTests } from "../../../src/gates/run-gates.js";
import { defaultPolicy } from "../../../src/tools/command-policy.js";
import { runCommandTool } from "../../../src/tools/run-command.js";
import type { ToolContext } from "../../../src/tools/types.js";
import { toolchain } from "../../helpers/toolchain.js";

// A Go gate inside bubblewrap writes its build cache: under yolo's state folder, never the user's ~/.cache/go-build
// (read-only in the sandbox; what the model's code writes there would be picked up by the user's next `go build`).
const probe = probeBwrap(process.env.PATH);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
// The home folder outside /tmp: the sandbox gives /tmp a private, writable tmpfs, and the home must be the host's, read-only.
const temp = (prefix: string, parent = os.tmpdir()) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(parent, prefix)));
  dirs.push(dir);
  return dir;
};

const GO_PROJECT: Record<string, string> = {
  "go.mod": "module example.com/sum\n\ngo 1.19\n",
  "sum.go": "package sum\n\nfunc Sum(xs ...int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n",
  "sum_test.go": 'package sum\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2, 3) != 6 {\n\t\tt.Fatal("wrong")\n\t}\n}\n',
};

describe.runIf(probe.available)("toolchain caches in the sandbox", () => {
  it.runIf(toolchain("go", ["go", "version"]))(
    "a Go gate passes three runs in a row from an empty cache, its cache under the state folder and none in the user's home",
    async () => {
      const root = temp("yolo-go-cache-");
      for (const [file, text] of Object.entries(GO_PROJECT)) fs.writeFileSync(path.join(root, file), text);
      const home = temp("yolo-go-home-", "/var/tmp");
      const stateDir = path.join(root, ".yolo");
      fs.mkdirSync(stateDir);
      const env = { PATH: process.env.PATH, HOME: home, GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local" };
      const gate = { name: "test", command: "go test -v ./...", required: true, timeoutS: 300 };
      const sandbox = { kind: "bwrap" as const, binary: probe.available ? probe.binary : "bwrap" };
      for (const attempt of [1, 2, 3]) {
        const [run] = await runGatesWithTests([gate], {
          root,
          env,
          capBytes: 64 * 1024,
          attempt,
          logDir: path.join(stateDir, "logs"),
          commands: { envAllow: null, sandbox, policy: { deny: [] } as never, allowExecFiles: [] } as never,
          stateDir,
        });
        expect(run.result.passed, run.result.tail).toBe(true);
        expect(run.result.passedCount).toBe(1);
      }
      expect(fs.readdirSync(path.join(stateDir, "cache", "go", "go-build")).length).toBeGreaterThan(0);
      expect(fs.existsSync(path.join(home, ".cache"))).toBe(false);
    },
    300_000,
  );

  it.runIf(toolchain("go", ["go", "version"]))(
    "the model's run_command gets the same per-project caches: go build and go test pass in the sandbox, nothing lands in the user's home",
    async () => {
      const root = temp("yolo-go-runcmd-");
      for (const [file, text] of Object.entries(GO_PROJECT)) fs.writeFileSync(path.join(root, file), text);
      const home = temp("yolo-go-home-", "/var/tmp");
      const stateDir = path.join(root, ".yolo");
      fs.mkdirSync(stateDir);
      const sandbox = { kind: "bwrap" as const, binary: probe.available ? probe.binary : "bwrap" };
      const ctx = (withState: boolean): ToolContext => ({
        root,
        commandTimeoutS: 300,
        outputCapBytes: 64 * 1024,
        readCapBytes: 64 * 1024,
        env: { PATH: process.env.PATH, HOME: home, GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local" },
        secretEnvNames: [],
        commands: { envAllow: null, sandbox, policy: defaultPolicy(), allowExecFiles: [] },
        ...(withState ? { stateDir } : {}),
      });
      // Without the state folder the command sees only the read-only home: the failure the caches remove.
      const bare = await runCommandTool.run(runCommandTool.schema.parse({ command: "go build ./..." }), ctx(false));
      expect(bare.ok).toBe(false);
      expect(bare.content).toMatch(/read-only file system/);
      for (const command of ["go build ./...", "go test ./...", "go vet ./..."]) {
        const outcome = await runCommandTool.run(runCommandTool.schema.parse({ command }), ctx(true));
        expect(outcome.ok, `${command}: ${outcome.content}`).toBe(true);
      }
      expect(fs.readdirSync(path.join(stateDir, "cache", "go", "go-build")).length).toBeGreaterThan(0);
      expect(fs.existsSync(path.join(home, ".cache"))).toBe(false);
    },
    300_000,
  );

  it.runIf(toolchain("go", ["go", "version"]))(
    "without the state folder's cache the same gate fails on the read-only home: the failure the caches remove",
    async () => {
      const root = temp("yolo-go-nocache-");
      for (const [file, text] of Object.entries(GO_PROJECT)) fs.writeFileSync(path.join(root, file), text);
      const home = temp("yolo-go-home-", "/var/tmp");
      const env = { PATH: process.env.PATH, HOME: home, GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local" };
      const sandbox = { kind: "bwrap" as const, binary: probe.available ? probe.binary : "bwrap" };
      const [run] = await runGatesWithTests([{ name: "test", command: "go test -v ./...", required: true, timeoutS: 300 }], {
        root,
        env,
        capBytes: 64 * 1024,
        attempt: 1,
        logDir: path.join(root, ".yolo", "logs"),
        commands: { envAllow: null, sandbox } as never,
      });
      expect(run.result.passed).toBe(false);
      expect(run.result.tail).toMatch(/read-only file system/);
    },
    300_000,
  );
});
