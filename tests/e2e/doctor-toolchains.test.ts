import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "vitest";
import { describeResult, runYolo } from "../helpers/cli.js";
import { probeBwrap } from "../../src/exec/sandbox.js";
import { mockWith, project } from "../helpers/per-test.js";
import { toolchain } from "../helpers/toolchain.js";

const byId = (stdout: string, id: string) =>
  (JSON.parse(stdout).checks as { id: string; status: string; detail: string; fix?: string }[]).find((c) => c.id === id);
const healthy = () => ({ content: "ok" });
const bwrap = probeBwrap(process.env.PATH);

describe.runIf(bwrap.available)("yolo doctor starts each gate's toolchain inside the sandbox", { timeout: 240_000 }, () => {
  it.runIf(toolchain("go", ["go", "version"]))("a Go gate: go starts and writes its cache there (ok)", async ({ expect, onTestFinished }) => {
    const mock = await mockWith(onTestFinished, healthy);
    const cwd = project(onTestFinished, { "go.mod": "module example.com/x\n\ngo 1.19\n" });
    const r = await runYolo(["doctor", "--json"], { cwd, baseURL: mock.url, env: { YOLO_MODEL: "mock-model" } });
    expect(byId(r.stdout, "toolchain:go"), describeResult(r)).toMatchObject({ status: "ok", detail: expect.stringMatching(/^go version go/) });
  });

  it("a detected Cargo gate on a PATH without cargo: left out of runs, with a warning naming cargo and the fix", async ({ expect, onTestFinished }) => {
    const mock = await mockWith(onTestFinished, healthy);
    const cwd = project(onTestFinished, { "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n' });
    // Only what doctor itself needs: bubblewrap (its trial runs `true`) and git; outside /tmp, which the sandbox replaces.
    const bin = mkdtempSync("/var/tmp/yolo-doctor-bin-");
    onTestFinished(() => rmSync(bin, { recursive: true, force: true }));
    if (bwrap.available) symlinkSync(bwrap.binary, join(bin, "bwrap"));
    symlinkSync("/usr/bin/git", join(bin, "git"));
    symlinkSync(existsSync("/usr/bin/true") ? "/usr/bin/true" : "/bin/true", join(bin, "true"));
    const r = await runYolo(["doctor", "--json"], { cwd, baseURL: mock.url, env: { YOLO_MODEL: "mock-model", PATH: bin } });
    // A gate yolo detected (nobody asked for it) never stops a run: doctor warns instead of failing.
    expect(byId(r.stdout, "gates:left-out:cargo-test")).toMatchObject({
      status: "warn",
      detail: "detected, left out of runs: cargo is not installed (not found on PATH)",
      fix: expect.stringContaining("Install cargo"),
    });
    expect(byId(r.stdout, "gates")).toMatchObject({ status: "warn", detail: expect.stringContaining("no detected gate can run here") });
  });
});
