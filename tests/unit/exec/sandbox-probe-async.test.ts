import { chmodSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeBwrap, probeBwrapAsync } from "../../../src/exec/sandbox.js";
import { tempDir } from "../../helpers/per-test.js";

// A run starts bubblewrap's trial sandbox without blocking (probeBwrapAsync) and chooses its sandbox from the answer
// (probeBwrap, answered from memory then). Both must say the same thing about the same bwrap: the async trial is
// compared with the blocking one on fake bwraps and on this machine's own PATH (each PATH string is probed once per
// process, so the blocking probe is asked with an equivalent PATH spelt differently).

// A `bwrap` on a PATH of its own that runs `body` (a shell script).
function fakeBwrap(onTestFinished: Parameters<typeof tempDir>[0], body: string): string {
  const dir = tempDir(onTestFinished, "yolo-fake-bwrap-");
  writeFileSync(join(dir, "bwrap"), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, "bwrap"), 0o755);
  return dir;
}

async function both(path: string) {
  const early = await probeBwrapAsync(path);
  return { early, blocking: probeBwrap(`${path}${delimiter}`) };
}

describe("probing bubblewrap without blocking", () => {
  it("says what the blocking probe says: works, fails with bwrap's reason, is not installed, cannot start", async ({ onTestFinished }) => {
    const works = fakeBwrap(onTestFinished, "exit 0");
    const refused = fakeBwrap(onTestFinished, 'echo "bwrap: setting up uid map: Permission denied" >&2; echo second line >&2; exit 1');
    const killed = fakeBwrap(onTestFinished, "kill -9 $$");
    const none = tempDir(onTestFinished, "yolo-no-bwrap-");
    const notScript = tempDir(onTestFinished, "yolo-bad-bwrap-");
    writeFileSync(join(notScript, "bwrap"), "\x7fELF not really");
    chmodSync(join(notScript, "bwrap"), 0o755);
    for (const path of [works, refused, killed, none, notScript]) {
      const { early, blocking } = await both(path);
      expect(early, path).toEqual(blocking);
    }
    expect((await probeBwrapAsync(works)).available).toBe(true);
    const said = await probeBwrapAsync(refused);
    expect(said.available).toBe(false);
    if (!said.available) expect(said.reason).toContain("setting up uid map: Permission denied");
    if (process.platform === "linux") expect(await probeBwrapAsync(none)).toMatchObject({ available: false, reason: "bwrap (bubblewrap) is not installed" });
  });

  it("on this machine's PATH, as the blocking probe does; asked again, answers from memory (one trial per PATH)", async ({ onTestFinished }) => {
    const path = process.env.PATH ?? "";
    const { early, blocking } = await both(`${path}${delimiter}${delimiter}`);
    expect(early).toEqual(blocking);
    // Once answered, the blocking probe answers the same from memory, without a second trial: a bwrap that would
    // now fail is not asked again within this process.
    const dir = fakeBwrap(onTestFinished, "exit 0");
    const first = await probeBwrapAsync(dir);
    writeFileSync(join(dir, "bwrap"), "#!/bin/sh\nexit 1\n");
    expect(probeBwrap(dir)).toEqual(first);
    expect(await probeBwrapAsync(dir)).toEqual(first);
    // Two asked at once share one trial.
    const other = fakeBwrap(onTestFinished, "sleep 0.2; exit 0");
    const [a, b] = [probeBwrapAsync(other), probeBwrapAsync(other)];
    expect(a).toBe(b);
  });
});
