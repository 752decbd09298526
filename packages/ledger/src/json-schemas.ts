import { KnowledgeDeltaSchema, RunRecordSchema, SessionRecordSchema } from './schemas.js';

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'session-record': SessionRecordSchema,
  'run-record': RunRecordSchema,
  'run-knowledge-delta': KnowledgeDeltaSchema,
};
