import { toggleCommand } from './skill-disable.js';

export const command = toggleCommand(false);
