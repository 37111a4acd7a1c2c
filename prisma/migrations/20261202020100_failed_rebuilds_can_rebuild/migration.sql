-- Servers whose rebuild failed after their guest was removed were `failed` while holding their
-- VMID, addresses, capacity and quota. As `rebuild_failed` they can be rebuilt again. A migration
-- of its own: a new enum value can only be used once the transaction that added it committed.
UPDATE "instances" SET "status" = 'rebuild_failed' WHERE "status" = 'failed' AND "failureCode" = 'REBUILD_FAILED';
