import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SnippetsCheckInput, SnippetsVerdict } from '../activities/snippets-check';
import { activityOptions, BUDGETS, extendedBy } from './activity-options';

/**
 * Whether Proxmox VE sees files a worker writes to a connection's snippets directory, on every
 * node of the connection. The API runs it while an admin saves the setting, and waits for it.
 */
export async function CheckSnippetsStorage(input: SnippetsCheckInput): Promise<SnippetsVerdict> {
  const { checkSnippetsStorage } = proxyActivities<Activities>(
    activityOptions(extendedBy(BUDGETS.snippetsCheck, input.waitSeconds), 1, 'write a probe file and look for it on every node'),
  );
  return checkSnippetsStorage(input);
}
