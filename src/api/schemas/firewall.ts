import { z } from 'zod';
import { MAX_FIREWALL_RULES, MAX_RULE_COMMENT, MAX_RULE_SOURCES, canonicalSource, ruleProblems, type FirewallEntry, type FirewallRule } from '../../domain/firewall-rules';
import { TaskStatus } from '../../generated/prisma/enums';

const ruleShape = z.strictObject({
  action: z.enum(['accept', 'drop']),
  protocol: z.enum(['tcp', 'udp', 'icmp', 'any']),
  port: z.string().max(11).optional().openapi({ description: 'tcp and udp only: `443` or `8000-8100`; absent: every port.' }),
  sources: z.array(z.string().max(49)).max(MAX_RULE_SOURCES).default([]).openapi({ description: 'IPv4 or IPv6 addresses and CIDRs (host bits clear); empty: from anywhere.' }),
  comment: z.string().max(MAX_RULE_COMMENT).default(''),
});

/** One inbound rule: its problems beyond the shape (ports, CIDRs parsed with ipaddr.js) name their field. */
export const firewallRuleSchema = ruleShape
  .superRefine((rule, ctx) => {
    for (const [path, message] of Object.entries(ruleProblems(rule as FirewallRule))) ctx.addIssue({ code: 'custom', path: path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message });
  })
  .transform((rule): FirewallRule => ({ ...rule, sources: rule.sources.map(canonicalSource) }))
  .openapi('FirewallRule');

const groupEntrySchema = z.strictObject({ group: z.string().min(1).max(64).openapi({ description: 'A firewall group of the tenant: its rules stand in this place.' }) });

const entrySchema = z.union([groupEntrySchema, firewallRuleSchema]).openapi('FirewallEntry');

export const firewallBody = z
  .strictObject({
    inboundPolicy: z.enum(['accept', 'drop']).openapi({ description: 'What happens to inbound traffic no rule matches.' }),
    rules: z.array(entrySchema).max(MAX_FIREWALL_RULES).openapi({ description: `Inbound rules in order, the first match deciding; at most ${MAX_FIREWALL_RULES}, groups' rules counted in.` }),
  })
  .openapi('FirewallUpdate');

export const firewallHeaders = z.object({
  'If-Match': z.string().max(64).optional().openapi({ description: 'The `ETag` of the firewall this change was made on: a firewall changed since answers 412 PRECONDITION_FAILED.' }),
});

const ruleView = z.object({ action: z.enum(['accept', 'drop']), protocol: z.enum(['tcp', 'udp', 'icmp', 'any']), port: z.string().optional(), sources: z.array(z.string()), comment: z.string() });
const entryView = z.union([z.object({ group: z.string(), name: z.string().openapi({ description: "The group's name now." }) }), ruleView]);

export const applicationView = z
  .object({
    state: z.enum(['applied', 'pending', 'failed']).openapi({ description: '`applied`: the guest holds these rules (with the groups as they are now); `pending`: an apply is due or under way; `failed`: the last apply failed (see its task).' }),
    taskId: z.string().nullable(),
    taskStatus: z.enum(TaskStatus).nullable(),
    errorCode: z.string().nullable(),
  })
  .openapi('FirewallApplication');

export const firewallView = z
  .object({
    inboundPolicy: z.enum(['accept', 'drop']),
    outboundPolicy: z.literal('accept').openapi({ description: 'Outbound traffic is always allowed (address anti-spoofing aside).' }),
    rules: z.array(entryView),
    revision: z.string().openapi({ description: 'The same as the `ETag` header, without quotes.' }),
    application: applicationView,
  })
  .openapi('Firewall');

export const firewallGroupBody = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'letters, digits, space . _ - (starting with a letter or digit)')
      .openapi({ example: 'web servers' }),
    description: z.string().max(500).default(''),
    rules: z.array(firewallRuleSchema).max(MAX_FIREWALL_RULES),
    tenantId: z.string().max(64).optional().openapi({ description: "Administrators only: the tenant the group is for (a customer's group is their tenant's)." }),
  })
  .openapi('FirewallGroupCreate');

export const firewallGroupPatch = z
  .strictObject({
    name: firewallGroupBody.shape.name.optional(),
    description: z.string().max(500).optional(),
    rules: z.array(firewallRuleSchema).max(MAX_FIREWALL_RULES).optional(),
  })
  .openapi('FirewallGroupUpdate');

export const groupServerView = z.object({ id: z.string(), hostname: z.string(), application: applicationView });

export const firewallGroupSummaryView = z
  .object({
    id: z.string(),
    tenantId: z.string(),
    name: z.string(),
    description: z.string(),
    rules: z.array(ruleView),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('FirewallGroupSummary');

export const firewallGroupView = firewallGroupSummaryView
  .extend({ servers: z.array(groupServerView).openapi({ description: 'The servers whose rules name this group, each with how applying the group as it is now went.' }) })
  .openapi('FirewallGroup');

export type FirewallBody = z.infer<typeof firewallBody>;
export type { FirewallEntry };
