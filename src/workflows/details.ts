import { setCurrentDetails } from '@temporalio/workflow';

/**
 * Writes the workflow's current details (Web UI, `__temporal_workflow_metadata`), headed by the
 * summary the API started it with: a run continued as new has no static summary of its own.
 */
export function detailsWriter(summary: string | undefined): (text: string) => void {
  return (text) => setCurrentDetails(summary ? `${summary}\n\n${text}` : text);
}
