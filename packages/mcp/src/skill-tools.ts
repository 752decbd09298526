import { loadSkill, SkillListOutput, SkillLoadOutput, skillCatalog } from '@maestro/skills';
import { z } from 'zod';
import { tool } from './tools.js';

/** Skills the agent may load (catalog tier): governed, enabled, workspace over user. */
export const skillListTool = tool({
  name: 'skill_list',
  title: 'Skill catalog',
  description:
    'The project’s and the user’s Agent Skills that can be loaded: name, description, released version, location. Disabled skills are not listed.',
  input: z.object({}),
  output: SkillListOutput,
  readOnly: true,
  async run(env) {
    const out = skillCatalog(env.layout, env.skills);
    const text = out.skills.map(
      (s) => `${s.name}${s.version === null ? '' : ` v${s.version}`}: ${s.description ?? ''}`,
    );
    return { data: out, text: text.join('\n') || 'no skill is available' };
  },
});

/**
 * A skill's instructions on demand, as a `<skill_content>` block with its resources listed. A
 * skill is procedure, not knowledge: it is never mixed into a knowledge wrapper.
 */
export const skillLoadTool = tool({
  name: 'skill_load',
  title: 'Load a skill',
  description:
    'The instructions of one skill from skill_list, with its resource files listed (not read). Scripts are never run by this tool.',
  input: z.object({ name: z.string().min(1).max(64) }),
  output: SkillLoadOutput,
  readOnly: true,
  async run(env, a) {
    const out = loadSkill(env.layout, env.skills, a.name);
    return { data: out, text: out.rendered };
  },
});
