import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProtectedPaths } from "../../../src/exec/protected-paths.js";
import { runShell } from "../../../src/exec/run-shell.js";
import { probeBwrap } from "../../../src/exec/sandbox.js";
import { collectProjectSecrets } from "../../../src/secrets/project-files.js";
import { project } from "../../helpers/per-test.js";
import { requireTool } from "../../helpers/requires.js";

// One walk decides which of the project's files are secret: the sandbox shows exactly those empty, and their values
// are what yolo scrubs. Before, two walks with different depths and skip lists could disagree about a file.
const SECRETS = {
  deep: "deep-secret-0123456789",
  dist: "dist-secret-0123456789",
  devcontainer: "devcontainer-secret-0123456789",
  aws: "aws-secret-0123456789",
  key: "MIIEpAIBAAKCAQEA0123456789",
};

function secretProject(onTestFinished: Parameters<typeof project>[0]): string {
  return project(onTestFinished, {
    "a/b/c/d/e/.env": `API_TOKEN=${SECRETS.deep}\nNODE_ENV=development\n`,
    "dist/.env": `SECRET=${SECRETS.dist}\n`,
    ".devcontainer/.env": `DB_PASSWORD=${SECRETS.devcontainer}\n`,
    ".devcontainer/devcontainer.json": '{ "name": "dev" }\n',
    ".aws/credentials": `[default]\naws_secret_access_key = ${SECRETS.aws}\n`,
    "keys/deploy.pem": `-----BEGIN RSA PRIVATE KEY-----\n${SECRETS.key}\n-----END RSA PRIVATE KEY-----\n`,
    ".env.example": "API_TOKEN=placeholder-value-123\n",
  });
}

describe("the project's secret files", () => {
  it("are found at any depth the walk reaches, in build folders and beside exec files, and their values collected", ({ onTestFinished }) => {
    const root = secretProject(onTestFinished);
    const found = findProtectedPaths(root);
    const rel = (list: string[]) => list.map((p) => path.relative(root, p)).sort();
    expect(rel(found.maskedFiles)).toEqual([".devcontainer/.env", "a/b/c/d/e/.env", "dist/.env", "keys/deploy.pem"]);
    expect(rel(found.maskedDirs)).toEqual([".aws"]);
    // The exec folder stays a read-only bind; only the secret file inside it is masked.
    expect(rel(found.readOnly)).toContain(".devcontainer");

    const values = collectProjectSecrets(found);
    expect(values).toEqual(expect.arrayContaining(Object.values(SECRETS)));
    // Not a secret: a non-secret variable of a secret file, and a template.
    expect(values).not.toContain("development");
    expect(values).not.toContain("placeholder-value-123");
  });

  it("a hostile command cannot read a secret file kept beside exec files inside the sandbox", async (ctx) => {
    requireTool(ctx, "bwrap", "masking .devcontainer/.env");
    const root = secretProject(ctx.onTestFinished);
    const probe = probeBwrap(process.env.PATH);
    if (!probe.available) throw new Error(probe.reason);
    const result = await runShell("cat .devcontainer/.env | base64; cat .devcontainer/devcontainer.json; echo done", {
      cwd: root,
      timeoutS: 20,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      capBytes: 8192,
      sandbox: { kind: "bwrap", binary: probe.binary },
    });
    expect(result.output).toContain("done");
    expect(result.output).toContain('"name": "dev"');
    expect(result.output).not.toContain(Buffer.from(`DB_PASSWORD=${SECRETS.devcontainer}`).toString("base64").slice(0, 12));
    expect(fs.readFileSync(path.join(root, ".devcontainer/.env"), "utf8")).toContain(SECRETS.devcontainer);
  });

  it("never reads yolo's own state folder as secrets: an earlier gate log's lines must not be scrubbed from the next run", ({ onTestFinished }) => {
    const root = project(onTestFinished, {
      ".yolo/threads/t1/gates/baseline-test.log": "TAP version 13\nnot ok 1 - test/add.test.js\n",
      ".yolo/logs/t1.log": "token = not-a-secret-of-the-user\n",
      ".env": "API_TOKEN=real-secret-0123456789\n",
    });
    const found = findProtectedPaths(root);
    expect(found.maskedDirs.map((p) => path.relative(root, p))).toContain(".yolo");
    const values = collectProjectSecrets(found);
    expect(values).toContain("real-secret-0123456789");
    expect(values.some((v) => v.includes("TAP version") || v.includes("not ok") || v.includes("not-a-secret"))).toBe(false);
  });
});
