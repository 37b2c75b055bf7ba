import { describe, expect, it } from "vitest";
import { groupThousands } from "../../../src/text/count.js";

describe("groupThousands writes a count as toLocaleString('en-US') does", () => {
  it.each([0, 1, -1, 7, 999, 1000, -1000, 12345, 999999, 1000000, -1234567, 2 ** 53 - 1, -(2 ** 53 - 1), 1.5, -0.25, 1234.5678, 2 ** 60, Number.NaN, Infinity])(
    "%s",
    (n) => {
      expect(groupThousands(n)).toBe(n.toLocaleString("en-US"));
    },
  );
});
