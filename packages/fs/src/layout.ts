import { join } from 'node:path';

/** Paths inside a project's `.workflow/` directory. `root` is the project root that holds it. */
export interface WorkflowLayout {
  root: string;
  workflow: string;
  specs: string;
  knowhow: string;
  sessions: string;
  index: string;
  trash: string;
  /** Released skill versions and their state (`skills/<name>/`). */
  skills: string;
  auditDir: string;
  /** maestro-flow's project-wide corpus lock target; the lock file is this path + `.lock`. */
  corpusLockTarget: string;
}

export function workflowLayout(root: string): WorkflowLayout {
  const workflow = join(root, '.workflow');
  return {
    root,
    workflow,
    specs: join(workflow, 'specs'),
    knowhow: join(workflow, 'knowhow'),
    sessions: join(workflow, 'sessions'),
    index: join(workflow, '.index'),
    trash: join(workflow, '.trash'),
    skills: join(workflow, 'skills'),
    auditDir: join(workflow, '.knowledge-audit'),
    corpusLockTarget: join(workflow, '.knowledge-corpus.namespace'),
  };
}
