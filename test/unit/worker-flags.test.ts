import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKER_NODE_FLAGS } from '../../src/worker';

describe('the worker process', () => {
  it('is started by `npm run worker` with the Node flags its memory budget was measured with', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const args = pkg.scripts.worker?.split(/\s+/) ?? [];
    expect(args[0]).toBe('node');
    for (const flag of WORKER_NODE_FLAGS) expect(args).toContain(flag);
    expect(args.slice(-3)).toEqual(['--import', 'tsx', 'src/worker.ts']);
  });
});
