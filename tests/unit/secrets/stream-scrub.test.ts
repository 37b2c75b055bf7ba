import { describe, expect, it } from "vitest";
import { CENSOR, Scrubber, secretForms } from "../../../src/secrets/scrub.js";
import { StreamScrubber, TokenScrubbers } from "../../../src/secrets/stream-scrub.js";

const secret = "sk-live-4f9a0b7c2d";
const other = "hunter2-password";
const scrubber = new Scrubber([secret, other]);

// Streams `pieces` through a StreamScrubber; returns what was shown, joined.
function shown(pieces: string[]): string {
  const stream = new StreamScrubber(scrubber);
  return pieces.map((p) => stream.push(p)).join("") + stream.end();
}

// Every way to cut `text` into two or three pieces.
function* splits(text: string): Generator<string[]> {
  for (let i = 0; i <= text.length; i++) {
    yield [text.slice(0, i), text.slice(i)];
    for (let j = i; j <= text.length; j += 3) yield [text.slice(0, i), text.slice(i, j), text.slice(j)];
  }
}

describe("StreamScrubber", () => {
  it("never shows a secret split over pieces, in any of its forms, at any cut", () => {
    for (const form of [...secretForms(secret), ...secretForms(other)]) {
      const text = `the key is ${form}, and ${form.slice(0, 4)} is not`;
      for (const pieces of splits(text)) {
        const out = shown(pieces);
        expect(out).not.toContain(form);
        expect(out).toBe(scrubber.scrub(text));
      }
    }
  });

  it("shows a secret's first characters once what follows proves it is no secret", () => {
    const stream = new StreamScrubber(scrubber);
    expect(stream.push("ab sk-li")).toBe("ab ");
    expect(stream.push("ne 2")).toBe("sk-line 2");
    expect(stream.end()).toBe("");
  });

  it("never cuts inside a whole form when a longer prefix overlaps it", () => {
    // "hunter2-password" ends the first piece while "sk-live-4" (a secret's start) is open after it.
    const text = `xx hunter2-passwordsk-live-4f9a0b7c2d yy`;
    for (const pieces of splits(text)) expect(shown(pieces)).toBe(`xx ${CENSOR}${CENSOR} yy`);
  });

  it("passes text through untouched when there are no secrets", () => {
    const stream = new StreamScrubber(new Scrubber([]));
    expect(stream.push("sk-li")).toBe("sk-li");
  });
});

describe("TokenScrubbers", () => {
  it("keeps each stream apart: another stream's end does not release a held secret start", async () => {
    const { registerSecrets } = await import("../../../src/secrets/scrub.js");
    registerSecrets([secret]);
    const tokens = new TokenScrubbers<{ node: string; text: string }>();
    const out: string[] = [];
    const push = (node: string, text: string) => {
      const t = tokens.push(node, { node, text });
      if (t) out.push(`${t.node}:${t.text}`);
    };
    push("a", "key sk-live");
    push("b", "hello");
    for (const t of tokens.drain("b")) out.push(`${t.node}:${t.text}`);
    push("a", "-4f9a0b7c2d done");
    for (const t of tokens.drain()) out.push(`${t.node}:${t.text}`);
    expect(out.join("|")).not.toContain(secret);
    expect(
      out
        .filter((l) => l.startsWith("a:"))
        .map((l) => l.slice(2))
        .join(""),
    ).toBe(`key ${CENSOR} done`);
  });
});
