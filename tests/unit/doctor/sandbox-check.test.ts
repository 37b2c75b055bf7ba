import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ResolvedConfig } from "../../../src/config/schema.js";
import { sandboxCheck } from "../../../src/doctor/sandbox-check.js";

// A bwrap on PATH that cannot make a sandbox, as on a host without unprivileged user namespaces.
const dir = mkdtempSync(join(tmpdir(), "yolo-doctor-badbwrap-"));
writeFileSync(join(dir, "bwrap"), "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n", { mode: 0o755 });
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PATH: `${dir}${delimiter}${process.env.PATH}` };
const configWith = (sandbox: string) => ({ sandbox, limits: { sandbox: { unixSockets: "deny" } } }) as unknown as ResolvedConfig;

describe("yolo doctor's sandbox line, when bubblewrap cannot sandbox here", () => {
  it('fails for "required" (and its older name "bwrap"): a run would stop before it starts', async () => {
    for (const mode of ["required", "bwrap"]) {
      const [line] = await sandboxCheck.run({ config: configWith(mode), env, timeoutS: 1 });
      expect(line.status, mode).toBe("fail");
      expect(line.detail).toContain(`sandbox is "${mode}" but`);
    }
  });

  it('only warns for "auto": a run goes on without the sandbox and says so', async () => {
    const [line] = await sandboxCheck.run({ config: configWith("auto"), env, timeoutS: 1 });
    expect(line.status).toBe("warn");
  });
});

describe("yolo doctor's sandbox line, when bubblewrap works", () => {
  it("says what a command is inside: its own user namespace, the caller's uid, no capabilities, no nested namespaces, no keyrings", async (ctx) => {
    const real = { PATH: process.env.PATH };
    const [line] = await sandboxCheck.run({ config: configWith("auto"), env: real, timeoutS: 1 });
    if (line.status !== "ok") return ctx.skip();
    const uid = process.getuid?.();
    expect(line.detail).toMatch(/^bubblewrap works \(.*bwrap\): commands run in a user namespace of their own/);
    expect(line.detail).toContain(uid === 0 ? "as root (uid 0) by id only" : `as uid ${uid}`);
    expect(line.detail).toMatch(/with no capabilities and (no nested user namespaces|nested user namespaces allowed)/);
    expect(line.detail).toContain("keyrings are refused");
  });
});
