import { checkOutputsHere, checkQueuedOutputs } from '@maestro/test-utils';
import { afterAll, afterEach } from 'vitest';

// Every --json document the e2e tests' CLI runs print is checked against its published schema
// here, after each test (and after the file's hooks), rather than by each child process: the
// same check, without every short command loading every package's schemas.
checkOutputsHere();
afterEach(checkQueuedOutputs);
afterAll(checkQueuedOutputs);
