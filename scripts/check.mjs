#!/usr/bin/env node
// `npm test` (through scripts/bootstrap.mjs) and `pnpm check`: the steps of scripts/check-steps.mjs,
// saying which step it is in; one Ctrl-C stops the step under way and everything it started.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSteps } from './check-steps.mjs';
import { runSteps } from './run-steps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const code = await runSteps(checkSteps(root), { cwd: root, label: '[npm test]' });
if (code === 130) console.log('[npm test] stopped: the step under way and everything it started have ended');
process.exit(code);
