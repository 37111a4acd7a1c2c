-- Tenant roles: every customer so far could do everything in their tenant, so each becomes an owner.
CREATE TYPE "TenantRole" AS ENUM ('owner', 'member', 'viewer');
ALTER TABLE "users" ADD COLUMN "tenantRole" "TenantRole";
UPDATE "users" SET "tenantRole" = 'owner' WHERE "role" = 'customer';

-- Servers shared with other users of their tenant.
CREATE TABLE "instance_grants" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "permissions" TEXT[],
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "instance_grants_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "instance_grants_instanceId_userId_key" ON "instance_grants"("instanceId", "userId");
CREATE INDEX "instance_grants_userId_idx" ON "instance_grants"("userId");
ALTER TABLE "instance_grants" ADD CONSTRAINT "instance_grants_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "instance_grants" ADD CONSTRAINT "instance_grants_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
