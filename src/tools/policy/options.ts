/** Which options of a program take a value, so its positional arguments are found after them. */
export interface OptionSpec {
  /** Short option letters that take a value (attached, `-n5`, or as the next word, `-n 5`). */
  value?: string;
  /** Long options (without `--`) that take a value (`--signal=KILL` or `--signal KILL`). */
  long?: readonly string[];
}

/** One option found: its name as written (`-c`, `--command`) and its value when it takes one. */
export interface FoundOption {
  name: string;
  value?: string;
}

/**
 * Reads options from argv[start] up to the first positional word (or `--`), the way getopt with a leading `+`
 * does: short options may be clustered (`-xc`); a letter that takes a value ends its cluster.
 */
export function scanOptions(argv: readonly string[], start: number, spec: OptionSpec): { index: number; options: FoundOption[] } {
  const options: FoundOption[] = [];
  let i = start;
  while (i < argv.length) {
    const arg = argv[i];
    if (arg === "--") return { index: i + 1, options };
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (eq >= 0) options.push({ name, value: arg.slice(eq + 1) });
      else if (spec.long?.includes(name.slice(2))) {
        options.push({ name, value: argv[i + 1] ?? "" });
        i++;
      } else options.push({ name });
      i++;
      continue;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j];
      if (spec.value?.includes(letter)) {
        const attached = arg.slice(j + 1);
        options.push({ name: `-${letter}`, value: attached || (argv[i + 1] ?? "") });
        if (!attached) i++;
        break;
      }
      options.push({ name: `-${letter}` });
    }
    i++;
  }
  return { index: i, options };
}
