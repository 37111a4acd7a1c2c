import { z } from 'zod';
import { INSTANCE_EVENT_TYPES } from '../../domain/events';
import { WebhookDeliveryStatus, WebhookEndpointStatus } from '../../generated/prisma/enums';
import { listQuerySchema } from '../openapi';

const eventTypes = z
  .array(z.enum(INSTANCE_EVENT_TYPES))
  .max(INSTANCE_EVENT_TYPES.length)
  .openapi({ description: 'The event types to receive; empty or omitted: every type.' });

export const createWebhookSchema = z
  .strictObject({
    url: z.string().min(1).max(2048).openapi({ description: '`https` (plain `http` only outside production); no loopback, link-local, private or other special-purpose address (IANA) unless an admin allows them.' }),
    eventTypes: eventTypes.default([]),
    tenantId: z.string().min(1).max(64).optional().openapi({ description: "Admins only: the tenant whose events it receives; omitted, every tenant's." }),
  })
  .openapi('CreateWebhook');

export const updateWebhookSchema = z
  .strictObject({
    enabled: z.boolean().optional().openapi({ description: 'Enabling again clears the reason and restarts the pending deliveries with a fresh retry window.' }),
    eventTypes: eventTypes.optional(),
  })
  .openapi('UpdateWebhook');

export const webhookView = z
  .object({
    id: z.string(),
    tenantId: z.string().nullable().openapi({ description: "null: an admin's endpoint for every tenant." }),
    url: z.string(),
    eventTypes: z.array(z.enum(INSTANCE_EVENT_TYPES)),
    status: z.enum(WebhookEndpointStatus),
    disabledReason: z.string().nullable(),
    disabledAt: z.string().nullable(),
    failingSince: z.string().nullable().openapi({ description: 'Since when deliveries have failed without a success in between.' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Webhook');

export const createdWebhookView = webhookView
  .extend({ secret: z.string().openapi({ description: 'The signing secret, `whsec_` and base64 (the Standard Webhooks form): shown in this answer only.' }) })
  .openapi('CreatedWebhook');

export const webhookListQuery = listQuerySchema.extend({
  tenantId: z.string().min(1).max(64).optional().openapi({ description: 'Admins only: one tenant.' }),
});

export const deliveryListQuery = listQuerySchema.extend({
  status: z.enum(WebhookDeliveryStatus).optional(),
  instanceId: z.string().min(1).max(64).optional(),
});

export const webhookDeliveryView = z
  .object({
    id: z.string(),
    eventId: z.string().openapi({ description: 'Also the `Pvecp-Event-Id` header: deduplicate by it.' }),
    eventType: z.enum(INSTANCE_EVENT_TYPES),
    instanceId: z.string(),
    status: z.enum(WebhookDeliveryStatus),
    attempts: z.number().int(),
    lastResponseCode: z.number().int().nullable().openapi({ description: "The receiver's HTTP status at the last attempt; null when it did not answer." }),
    lastError: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    nextAttemptAt: z.string().nullable().openapi({ description: 'While pending: when the next attempt is due.' }),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('WebhookDelivery');
