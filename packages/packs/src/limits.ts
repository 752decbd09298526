/**
 * Read caps (policy, see README): a context file is never read beyond 256 KB, so a file larger
 * than that is never read whole; a pack's candidates may cost at most 2 MB of reads per
 * resolution, so an agent hook stays fast on large packs.
 */
export const READ_CAP_BYTES = 256 * 1024;
export const PACK_READ_BUDGET_BYTES = 2 * 1024 * 1024;
/** A source map larger than this is not used for evidence anchors. */
export const SOURCE_MAP_CAP_BYTES = 1024 * 1024;
