import { describe, expect, it } from "vitest";
import { isSecretName, scrubEnv } from "../../../src/secrets/env.js";

describe("scrubEnv", () => {
  it("removes variables whose names look like credentials", () => {
    const secret = [
      "OPENAI_API_KEY",
      "API_KEY",
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "GITHUB_TOKEN",
      "MY_TOKEN",
      "NPM_TOKEN",
      "DB_PASSWORD",
      "PGPASSWORD",
      "MYSQL_PWD_PASSWD",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "BASIC_AUTH",
      "SSH_AUTH_SOCK",
      "GPG_PRIVATE_KEY",
      "SESSION_COOKIE",
      "STRIPE_SECRET",
      "ANTHROPIC_APIKEY",
      "NGROK_AUTHTOKEN",
      "npm_config__authToken",
      "openaiApiKey",
      "SENTRY_DSN",
      "GH_PAT",
      "REDIS_PASS",
    ];
    for (const name of secret) expect(isSecretName(name), name).toBe(true);
  });

  it("keeps ordinary variables, including names that merely contain a secret word", () => {
    const ordinary = [
      "PATH",
      "HOME",
      "USER",
      "SHELL",
      "LANG",
      "TERM",
      "PWD",
      "OLDPWD",
      "TMPDIR",
      "NODE_ENV",
      "CI",
      "MONKEY",
      "KEYBOARD_LAYOUT",
      "DONKEY_COUNT",
      "GIT_AUTHOR_NAME",
      "AUTHOR",
      "TOKENIZERS_PARALLELISM",
      "PASSAGE",
      "PATTERN",
      "COMPATIBLE",
      "XDG_RUNTIME_DIR",
    ];
    for (const name of ordinary) expect(isSecretName(name), name).toBe(false);
  });

  it("removes the extra names and values that embed a password in a URL", () => {
    const env = {
      PATH: "/usr/bin",
      HOME: "/home/u",
      LLM_KEYCHAIN_ENTRY: "x",
      PROVIDER_CRED: "abc",
      DATABASE_URL: "postgres://app:hunter2@db:5432/app",
      PUBLIC_URL: "https://example.com/path",
      UNSET: undefined,
    };
    expect(scrubEnv(env, ["PROVIDER_CRED"])).toEqual({
      PATH: "/usr/bin",
      HOME: "/home/u",
      LLM_KEYCHAIN_ENTRY: "x",
      PUBLIC_URL: "https://example.com/path",
    });
  });

  it("does not modify its input", () => {
    const env = { API_KEY: "k", PATH: "/bin" };
    scrubEnv(env, []);
    expect(env).toEqual({ API_KEY: "k", PATH: "/bin" });
  });
});
