import { PacksConfig } from './config.js';
import {
  PackBuildOutput,
  PackCatalogOutput,
  PackEvalOutput,
  PackGuideOutput,
  PackListOutput,
  PackResolveOutput,
  PackValidateOutput,
} from './output-schemas.js';
import { CompileRun, ContextResolution, SelectionEval, SourceMap } from './standard-schemas.js';

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'knowledge-pack-compile-run': CompileRun,
  'knowledge-pack-source-map': SourceMap,
  'knowledge-pack-selection-eval': SelectionEval,
  'knowledge-pack-context-resolution': ContextResolution,
  'packs-config': PacksConfig,
  'pack-list-output': PackListOutput,
  'pack-validate-output': PackValidateOutput,
  'pack-resolve-output': PackResolveOutput,
  'pack-eval-output': PackEvalOutput,
  'pack-build-output': PackBuildOutput,
  'pack-guide-output': PackGuideOutput,
  'pack-catalog-output': PackCatalogOutput,
};
