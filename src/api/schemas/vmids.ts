import { z } from 'zod';
import { listQuerySchema } from '../openapi';

/** A VMID set aside because a guest we did not create holds it. */
export const quarantinedVmidSchema = z
  .object({
    id: z.string(),
    connectionId: z.string(),
    vmid: z.number().int(),
    strangerNode: z.string().nullable().openapi({ description: "The node of the guest found there ('unknown' when Proxmox only said the VMID is taken)." }),
    strangerName: z.string().nullable().openapi({ description: 'Its name, as Proxmox lists it.' }),
    foundByInstanceId: z.string().nullable().openapi({ description: 'The server whose clone stage found it and moved on to another VMID.' }),
    quarantinedAt: z.string().nullable(),
  })
  .openapi('QuarantinedVmid');

export const quarantinedVmidQuerySchema = listQuerySchema.extend({
  connectionId: z.string().min(1).max(64).optional(),
});
