import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { analystDone, call, director, GOOD_ADD, handoff, pmDone, teaSays } from "../helpers/director.js";
import { lastToolResults, roleOf } from "../helpers/mock-openai.js";
import { mockWith, project } from "../helpers/per-test.js";
import { toolchain } from "../helpers/toolchain.js";
import { probeBwrap } from "../../src/exec/sandbox.js";

// The model's own run_command in the sandbox: a Go build and test get the project's cache under yolo's state folder,
// as gates do (kept from one command to the next), and nothing lands in the user's home.
const GO: Record<string, string> = {
  "go.mod": "module example.com/sum\n\ngo 1.19\n",
  "sum.go": "package sum\n\nfunc Sum(a, b int) int { return a + b }\n",
  "sum_test.go": 'package sum\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal("wrong")\n\t}\n}\n',
  ".gitignore": ".yolo/\n",
  // The only gate is the helper's `npm test` (its module present, so it passes): nothing but dev's run_command runs Go,
  // so a Go cache under the state folder can only be the command's.
  "src/add.js": GOOD_ADD,
  "yolo.config.ts": 'export default { gates: [{ name: "test", command: "npm test" }] };\n',
};

describe.runIf(probeBwrap(process.env.PATH).available && toolchain("go", ["go", "version"]))(
  "run_command's toolchain caches in a run",
  { timeout: 300_000 },
  () => {
    it("dev's sandboxed `go build` and `go test` pass, writing .yolo/cache/go, never the home folder's cache", async ({ expect, onTestFinished }) => {
      const root = project(onTestFinished, GO);
      const home = realpathSync(mkdtempSync("/var/tmp/yolo-home-"));
      onTestFinished(() => rmSync(home, { recursive: true, force: true }));
      const command = "go build ./... && go test ./...";
      const mock = await mockWith(
        onTestFinished,
        director({
          analyst: [analystDone],
          pm: [pmDone(false)],
          dev: [call("run_command", { command }), handoff({ summary: "built and tested", files_changed: [] })],
          tea: [teaSays("PASS")],
        }),
      );
      const env = { HOME: home, GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local", YOLO_SANDBOX: "required" };
      const r = await runYolo(["run", "--json", "Check the build"], { cwd: root, baseURL: mock.url, env });
      expect(r.exitCode, describeResult(r)).toBe(0);
      // The tool result dev's next request carries: the command passed inside the sandbox.
      const after = mock.requests.find((q) => roleOf(q) === "dev" && lastToolResults(q).length > 0);
      const result = String(lastToolResults(after!)[0]?.content ?? "");
      expect(result, result).toMatch(/^exit code 0\n/);
      expect(result).toMatch(/ok\s+example\.com\/sum/);
      expect(readdirSync(join(root, ".yolo", "cache", "go", "go-build")).length).toBeGreaterThan(0);
      expect(existsSync(join(home, ".cache"))).toBe(false);
    });
  },
);
