/**
 * Exiting at once (a third Ctrl+C) from deep inside a command. main.ts, the only module that calls process.exit,
 * installs the real exit at start; commands call hardExit() and so need not import main.ts (which imports them).
 */
let exit: (code: number) => void = (code) => {
  throw new Error(`hardExit(${code}) called before main.ts installed the process exit`);
};

export function installHardExit(fn: (code: number) => never): void {
  exit = fn;
}

export function hardExit(code: number): void {
  exit(code);
}
