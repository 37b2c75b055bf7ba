import { groupThousands } from "./count.js";

/** `1 story`, `3 stories`: a count with its noun in the right number. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${groupThousands(n)} ${n === 1 ? singular : pluralForm}`;
}
