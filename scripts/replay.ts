/**
 * Replays workflow histories (the JSON of `temporal workflow show --output json`) against the
 * current workflow code; exits non-zero when any of them would not replay deterministically.
 * Use it before deploying a workflow change:
 *   npx tsx scripts/replay.ts history.json [more.json ...]
 */
import fs from 'node:fs';
import { Worker } from '@temporalio/worker';
import { workflowsPath } from '../src/worker';

export async function replayFiles(files: string[], bundlePath = process.env.WORKFLOW_BUNDLE_PATH): Promise<{ file: string; error?: string }[]> {
  const options = bundlePath ? { workflowBundle: { codePath: bundlePath } } : { workflowsPath };
  const results: { file: string; error?: string }[] = [];
  for (const file of files) {
    try {
      await Worker.runReplayHistory(options, JSON.parse(fs.readFileSync(file, 'utf8')), file);
      results.push({ file });
    } catch (error) {
      results.push({ file, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  }
  return results;
}

if (require.main === module) {
  replayFiles(process.argv.slice(2))
    .then((results) => {
      for (const { file, error } of results) console.log(`${error ? 'FAIL' : 'ok  '} ${file}${error ? `\n     ${error}` : ''}`);
      process.exit(results.some((r) => r.error) || results.length === 0 ? 1 : 0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
