import { execa } from "execa";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/ci-example.sh", import.meta.url));

describe("scripts/ci-example.sh: the GitHub Actions example's steps against the recorded session", { timeout: 240_000 }, () => {
  it("runs yolo --ci --json --branch --replay, writes both reports and the logs, and leaves the branch committed", async () => {
    const r = await execa("bash", [SCRIPT], { reject: false, encoding: "utf8", stdin: "ignore", timeout: 90_000, env: { CI: "true" } });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^ci-example: ok \(thread [a-z0-9]{8}, exit 0;/m);
  });
});
