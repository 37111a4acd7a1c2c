-- When the anti-spoofing of an instance's guest was last made sure of (null: never, a server built before it).
ALTER TABLE "instances" ADD COLUMN "firewallCheckedAt" TIMESTAMP(3);

CREATE INDEX "instances_connectionId_firewallCheckedAt_idx" ON "instances"("connectionId", "firewallCheckedAt");
