import type { Task } from '../../../clients/typescript/index';

/** A line of a task's step thread; a streamed one has no time. */
export type Step = Omit<Task['steps'][number], 'at'> & { at?: string };

/** Appends a streamed step to a thread unless the thread has it already (a replay after a reconnect). */
export function addStep(thread: readonly Step[], step: Step): Step[] {
  return thread.some((line) => line.step === step.step && line.status === step.status) ? [...thread] : [...thread, step];
}
