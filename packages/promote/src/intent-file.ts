/**
 * Where a promotion journals its intent, relative to `.workflow/` (rolled forward by the next
 * promote). Its own module (`@maestro/promote/intent`) so that the gate can look for it without
 * loading the promoter.
 */
export const PROMOTE_INTENT_FILE = '.promote-commit.intent.json';
