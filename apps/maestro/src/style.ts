/** Minimal terminal styling. Off when NO_COLOR is set, with --json, or when stdout is not a TTY. */
let enabled = false;

export function setColor(on: boolean): void {
  enabled = on;
}

const wrap = (open: number, close: number) => (s: string) => (enabled ? `\u001b[${open}m${s}\u001b[${close}m` : s);

export const bold = wrap(1, 22);
export const dim = wrap(2, 22);
export const red = wrap(31, 39);
export const green = wrap(32, 39);
export const yellow = wrap(33, 39);
export const cyan = wrap(36, 39);
