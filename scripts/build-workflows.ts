/**
 * Bundles the workflow code once, so workers start without bundling:
 *   npx tsx scripts/build-workflows.ts [out-file]   (default .data/workflow-bundle.js)
 * then run workers with WORKFLOW_BUNDLE_PATH=<out-file>.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowsPath } from '../src/worker';
import { projectRoot } from './temporal';

export async function buildWorkflowBundle(outFile: string): Promise<string> {
  const quiet = () => undefined;
  const logger = { log: quiet, trace: quiet, debug: quiet, info: quiet, warn: quiet, error: (message: string) => console.error(message) };
  const { code } = await bundleWorkflowCode({ workflowsPath, logger });
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, code);
  return outFile;
}

if (require.main === module) {
  const out = path.resolve(process.argv[2] ?? path.join(projectRoot, '.data', 'workflow-bundle.js'));
  buildWorkflowBundle(out)
    .then((file) => console.log(file))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
