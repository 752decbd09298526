export type { DiffPart } from './diff.js';
export { wordDiff } from './diff.js';
export { escapeHtml } from './html.js';
export type { ReviewServeInfo } from './schemas.js';
export { jsonSchemas, ReviewServeOutput } from './schemas.js';
export type { ReviewServer, ReviewServerOptions } from './server.js';
export { startReviewServer } from './server.js';
