/**
 * Where a workflow's time went, from its Temporal history: its activities' time queued (scheduled
 * → started) and running (started → completed), its workflow tasks' time queued and running, and
 * its timers, each summed over the run. What is left of start → close is Temporal's own
 * bookkeeping and the time between one event's end and the next one's schedule.
 */
import type { Client as TemporalClient } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { round } from './stats';

const { EventType } = temporal.api.enums.v1;

export interface HistoryBreakdown {
  totalMs: number;
  activities: number;
  activityQueuedMs: number;
  activityRunningMs: number;
  workflowTasks: number;
  workflowTaskQueuedMs: number;
  workflowTaskRunningMs: number;
  timerMs: number;
  /** The slowest activities by running time: type and milliseconds. */
  slowest: { activity: string; ms: number }[];
}

const ms = (event: temporal.api.history.v1.IHistoryEvent) => {
  const t = event.eventTime;
  return t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : 0;
};

export async function historyBreakdown(client: TemporalClient, workflowId: string): Promise<HistoryBreakdown> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const at = new Map(events.map((event) => [Number(event.eventId), event]));
  const sinceEvent = (end: temporal.api.history.v1.IHistoryEvent, startId: unknown) => {
    const start = at.get(Number(startId));
    return start ? ms(end) - ms(start) : 0;
  };
  const b: HistoryBreakdown = { totalMs: 0, activities: 0, activityQueuedMs: 0, activityRunningMs: 0, workflowTasks: 0, workflowTaskQueuedMs: 0, workflowTaskRunningMs: 0, timerMs: 0, slowest: [] };
  const running: { activity: string; ms: number }[] = [];
  for (const event of events) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED:
        b.activities++;
        b.activityQueuedMs += sinceEvent(event, event.activityTaskStartedEventAttributes?.scheduledEventId);
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const attributes = event.activityTaskCompletedEventAttributes;
        const took = sinceEvent(event, attributes?.startedEventId);
        b.activityRunningMs += took;
        const scheduled = at.get(Number(attributes?.scheduledEventId));
        running.push({ activity: scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?', ms: round(took) });
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED:
        b.workflowTasks++;
        b.workflowTaskQueuedMs += sinceEvent(event, event.workflowTaskStartedEventAttributes?.scheduledEventId);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
        b.workflowTaskRunningMs += sinceEvent(event, event.workflowTaskCompletedEventAttributes?.startedEventId);
        break;
      case EventType.EVENT_TYPE_TIMER_FIRED:
        b.timerMs += sinceEvent(event, event.timerFiredEventAttributes?.startedEventId);
        break;
    }
  }
  const [first, last] = [events[0], events[events.length - 1]];
  b.totalMs = first && last ? ms(last) - ms(first) : 0;
  b.slowest = running.sort((x, y) => y.ms - x.ms).slice(0, 5);
  for (const key of ['totalMs', 'activityQueuedMs', 'activityRunningMs', 'workflowTaskQueuedMs', 'workflowTaskRunningMs', 'timerMs'] as const) b[key] = round(b[key]);
  return b;
}

/** The mean of each figure over several runs (the slowest activities of the median run by total). */
export function meanBreakdown(runs: HistoryBreakdown[]): HistoryBreakdown | null {
  const sorted = [...runs].sort((x, y) => x.totalMs - y.totalMs);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) return null;
  const mean = (key: Exclude<keyof HistoryBreakdown, 'slowest'>) => round(runs.reduce((sum, run) => sum + run[key], 0) / runs.length);
  return {
    totalMs: mean('totalMs'),
    activities: mean('activities'),
    activityQueuedMs: mean('activityQueuedMs'),
    activityRunningMs: mean('activityRunningMs'),
    workflowTasks: mean('workflowTasks'),
    workflowTaskQueuedMs: mean('workflowTaskQueuedMs'),
    workflowTaskRunningMs: mean('workflowTaskRunningMs'),
    timerMs: mean('timerMs'),
    slowest: median.slowest,
  };
}
