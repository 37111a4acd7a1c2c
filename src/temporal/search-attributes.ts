// Workflow code imports these too: nothing here may import more than @temporalio/common.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const InstanceIdKey = defineSearchAttributeKey('InstanceId', SearchAttributeType.KEYWORD);
export const TenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
export const ProvisionStageKey = defineSearchAttributeKey('ProvisionStage', SearchAttributeType.KEYWORD);
export const InstanceStatusKey = defineSearchAttributeKey('InstanceStatus', SearchAttributeType.KEYWORD);
/** Temporal's own, on each workflow a schedule starts: when its action was due (the nominal time; a trigger's or a backfill's too). */
export const ScheduledStartTimeKey = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);
