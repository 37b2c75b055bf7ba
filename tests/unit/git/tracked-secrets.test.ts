import { describe, expect, it } from "vitest";
import { trackedSecretFiles, trackedSecretsNotice } from "../../../src/git/tracked-secrets.js";
import { project, tempDir } from "../../helpers/per-test.js";

// The start-of-leg warning about tracked files that look like secrets: listed by git, said after run.started.
describe("trackedSecretFiles", () => {
  it("lists the tracked files that look like secrets: none outside git or in a clean project", async ({ onTestFinished }) => {
    const secrets = project(onTestFinished, { ".env": "KEY=1\n", "keys/id_rsa": "k\n", ".env.example": "KEY=\n", "src/a.js": "1\n" });
    expect(await trackedSecretFiles(secrets)).toEqual([".env", "keys/id_rsa"]);
    expect(await trackedSecretFiles(project(onTestFinished))).toEqual([]);
    expect(await trackedSecretFiles(tempDir(onTestFinished, "yolo-outside-"))).toEqual([]);
  });

  it("warns once, naming five and counting the rest", async ({ onTestFinished }) => {
    const files = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`keys/k${i}.pem`, "k\n"]));
    const [warning, ...rest] = await trackedSecretsNotice(project(onTestFinished, files));
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^Tracked files that look like secrets: keys\/k0\.pem, keys\/k1\.pem, keys\/k2\.pem, keys\/k3\.pem, keys\/k4\.pem and 2 more\./);
    expect(await trackedSecretsNotice(project(onTestFinished))).toEqual([]);
  });
});
