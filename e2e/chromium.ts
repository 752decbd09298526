import { existsSync } from 'node:fs';

/**
 * Debian's `chromium` (installed by `.ci/run` when missing), or CHROMIUM_PATH. Browser tests skip,
 * saying so in their name, only when no executable is found.
 */
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
export const CHROMIUM = CANDIDATES.find((p): p is string => !!p && existsSync(p)) ?? null;
export const BROWSER_SUITE = CHROMIUM
  ? 'the review page in chromium'
  : 'the review page in chromium (SKIPPED: no chromium at /usr/bin/chromium; apt-get install -y chromium or set CHROMIUM_PATH)';

/** As root, chromium refuses to start without --no-sandbox. */
export const CHROMIUM_ARGS = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
