/**
 * Where a multi-file corpus edit journals its intent (rolled forward by the next write), relative
 * to `.workflow/`. Its own module (`@maestro/spec/intent`) so that the gate can look for it
 * without loading the corpus writer.
 */
export const SPEC_INTENT_FILE = '.spec-commit.intent.json';
