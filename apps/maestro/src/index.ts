export type { CliIO } from './cli.js';
export { findProjectRoot, runCli, version } from './cli.js';
export type { CommandContext, CommandModule, CommandResult } from './kit.js';
export { ContextExpandedOutput, ErrorOutput, jsonSchemas, SearchExpandedOutput, VersionOutput } from './schemas.js';
