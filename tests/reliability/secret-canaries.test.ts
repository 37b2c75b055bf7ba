import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analystDone, call, devWrites, director, GOOD_ADD, pmDone, teaSays } from "../helpers/director.js";
import { runEngine } from "../helpers/engine.js";
import { startMockOpenAI } from "../helpers/mock-openai.js";
import { makeProject } from "../helpers/project.js";
import { cleanupsAfterEach } from "../helpers/cleanups.js";

// 20 canaries: 16 in the environment (secret-looking names, the API key, a password inside a URL) and 4 in
// sensitive files of the project. A full scripted run then tries to surface them (reading the files, printing the
// environment, reading a config that repeats the env values raw and encoded). Zero hits are allowed in the log,
// the database bytes, the transcripts and gate logs under .yolo, the events, and the bodies sent to the model.

const cleanups = cleanupsAfterEach();

const canary = (i: number) => `cnry${i}x${randomBytes(10).toString("hex")}`;

function forms(secret: string): string[] {
  const b = Buffer.from(secret);
  return [secret, b.toString("base64"), b.toString("base64url"), encodeURIComponent(secret), b.toString("hex")];
}

describe("secret canaries", () => {
  it("20 canaries: zero hits in logs, database bytes, .yolo files, events and model requests", async () => {
    const env: Record<string, string> = { OPENAI_API_KEY: canary(0) };
    const names = [
      "CANARY_TOKEN",
      "MY_API_KEY",
      "DB_PASSWORD",
      "GITHUB_PAT",
      "NPM_AUTH_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "SESSION_COOKIE",
      "SentryDsn",
      "APP_CLIENT_SECRET",
      "STRIPE_KEY",
      "SLACK_WEBHOOK_SECRET",
      "npm_config__authToken",
      "PASSPHRASE",
      "X_CREDENTIALS",
    ];
    names.forEach((name, i) => {
      env[name] = canary(i + 1);
    });
    const urlPassword = canary(15);
    env.DATABASE_URL = `postgres://app:${urlPassword}@db.internal:5432/app`;
    const envCanaries = [
      ...Object.entries(env)
        .filter(([k]) => k !== "DATABASE_URL")
        .map(([, v]) => v),
      urlPassword,
    ];
    const fileCanaries = [canary(16), canary(17), canary(18), canary(19)];
    const all = [...envCanaries, ...fileCanaries];
    expect(all).toHaveLength(20);

    const { root, cleanup } = makeProject({
      ".env": `SECRET=${fileCanaries[0]}\n`,
      id_rsa: `-----BEGIN OPENSSH PRIVATE KEY-----\n${fileCanaries[1]}\n`,
      ".npmrc": `//registry.npmjs.org/:_authToken=${fileCanaries[2]}\n`,
      "deploy/.env.production": `TOKEN=${fileCanaries[3]}\n`,
      // An app config repeating the env's secrets raw and in common encodings: read_file must scrub them.
      "config/local.json": JSON.stringify({
        raw: envCanaries,
        b64: envCanaries.map((s) => Buffer.from(`user:${s}`).toString("base64")),
        url: envCanaries.map(encodeURIComponent),
      }),
    });
    cleanups.push(cleanup);
    const dir = director({
      analyst: [analystDone],
      pm: [pmDone(false)],
      dev: [
        call("read_file", { path: ".env" }),
        call("read_file", { path: "id_rsa" }),
        call("read_file", { path: ".npmrc" }),
        call("search_files", { pattern: "TOKEN|SECRET|PRIVATE" }),
        call("read_file", { path: "config/local.json" }),
        call("run_command", { command: 'env; cat config/local.json; cat .env deploy/.env.production id_rsa .npmrc; echo "$CANARY_TOKEN $OPENAI_API_KEY"' }),
        ...devWrites(GOOD_ADD),
      ],
      tea: [teaSays("PASS")],
    });
    const mock = await startMockOpenAI(dir);
    cleanups.push(() => mock.close());

    const { result, events } = await runEngine({ root, baseURL: mock.url, threadId: "t-canary", requirement: "Add add()", env });
    expect(result.status).toBe("passed");

    const sources: Record<string, string> = {
      events: JSON.stringify(events),
      requests: JSON.stringify(mock.requests.map((r) => r.body)),
    };
    const walk = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
    for (const file of walk(path.join(root, ".yolo"))) sources[path.relative(root, file)] = fs.readFileSync(file).toString("latin1");
    expect(Object.keys(sources).some((k) => k.endsWith(".log"))).toBe(true);
    expect(Object.keys(sources).some((k) => k.endsWith(".db"))).toBe(true);

    const hits: string[] = [];
    for (const [where, text] of Object.entries(sources)) {
      for (const secret of all)
        for (const form of forms(secret)) if (text.includes(form)) hits.push(`${where}: ${secret.slice(0, 6)} as ${form === secret ? "raw" : "encoded"}`);
    }
    expect(hits).toEqual([]);
    // The run really surfaced the material: the scrubbed config and the refusals reached the model.
    expect(sources.requests).toContain("[redacted]");
    expect(sources.requests).toMatch(/may not read or change/);
  });
});
