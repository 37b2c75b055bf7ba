import { describe, expect, it } from "vitest";
import { RepeatDetector } from "../../../src/agents/runner.js";
import { collectSecrets, Scrubber } from "../../../src/secrets/scrub.js";

describe("Scrubber", () => {
  const secret = 's3cr3t/value+with=chars"q';
  const scrubber = new Scrubber([secret]);

  it("replaces the raw value and its JSON-escaped, URL-encoded, hex and base64 forms", () => {
    const b = Buffer.from(secret);
    for (const form of [
      secret,
      JSON.stringify(secret).slice(1, -1),
      encodeURIComponent(secret),
      b.toString("hex"),
      b.toString("base64"),
      b.toString("base64url"),
    ]) {
      expect(scrubber.scrub(`before ${form} after`)).not.toContain(form);
    }
  });

  it("finds a secret base64-encoded inside a longer value (a Basic auth header), at every alignment", () => {
    for (const prefix of ["u:", "us:", "usr:"]) {
      const header = Buffer.from(`${prefix}${secret}`).toString("base64");
      const inner = Buffer.from(secret).toString("base64").slice(2, -4);
      expect(scrubber.scrub(header)).toContain("[redacted]");
      expect(scrubber.scrub(header)).not.toContain(inner);
    }
  });

  it("scrubs deep values, keys included, and leaves short values alone", () => {
    expect(scrubber.scrubDeep({ a: [secret, { [secret]: 1 }] })).toEqual({ a: ["[redacted]", { "[redacted]": 1 }] });
    expect(new Scrubber(["abc"]).scrub("abc")).toBe("abc");
  });
});

describe("collectSecrets", () => {
  it("takes secret-looking names, extra names and values, and URL passwords; not ordinary variables", () => {
    const found = collectSecrets(
      { GITHUB_TOKEN: "ghp_aaaaaaaa", HOME: "/home/someone", CUSTOM: "custom-key-1", DATABASE_URL: "postgres://u:pa55word@h/db" },
      ["CUSTOM"],
      ["sk-extra-123"],
    );
    expect(found.sort()).toEqual(["custom-key-1", "ghp_aaaaaaaa", "pa55word", "sk-extra-123"].sort());
  });
});

describe("RepeatDetector (loop detection)", () => {
  it("fires on the fifth identical call in a row, comparing arguments as JSON", () => {
    const d = new RepeatDetector(5);
    const results = [1, 2, 3, 4, 5].map((i) => d.seen({ name: "read_file", args: i % 2 ? { path: "a", x: 1 } : { x: 1, path: "a" }, raw: "" }));
    expect(results).toEqual([false, false, false, false, true]);
  });

  it("restarts the count when a different call comes between", () => {
    const d = new RepeatDetector(5);
    const seq = ["a", "a", "a", "a", "b", "a", "a", "a", "a"].map((p) => d.seen({ name: "read_file", args: { path: p }, raw: "" }));
    expect(seq.every((x) => !x)).toBe(true);
  });
});
