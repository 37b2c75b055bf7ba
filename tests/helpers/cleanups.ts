import { afterEach } from "vitest";

/** Clean-ups a test registers with `push`; `run` calls them now (and forgets them). */
export interface Cleanups {
  push(...fns: (() => unknown)[]): void;
  run(): Promise<void>;
}

/**
 * The one clean-up list a test file needs: whatever its tests push runs after each test, awaited one at a time.
 * `lastFirst` undoes in reverse (a child or a held response released before the server it talks to is closed).
 * For tests that run concurrently use `per-test.ts` instead: this list is shared by the file.
 */
export function cleanupsAfterEach(order: "firstFirst" | "lastFirst" = "firstFirst"): Cleanups {
  const pending: (() => unknown)[] = [];
  const run = async () => {
    const now = pending.splice(0);
    for (const c of order === "lastFirst" ? now.reverse() : now) await c();
  };
  afterEach(run);
  return { push: (...fns) => void pending.push(...fns), run };
}
