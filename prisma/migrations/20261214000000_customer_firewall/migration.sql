-- AlterEnum
ALTER TYPE "InstanceStatus" ADD VALUE 'updating_firewall';

-- CreateTable
CREATE TABLE "instance_firewalls" (
    "instanceId" TEXT NOT NULL,
    "inboundPolicy" TEXT NOT NULL,
    "rules" JSONB NOT NULL,
    "groupIds" TEXT[],
    "revision" INTEGER NOT NULL,
    "generation" INTEGER NOT NULL,
    "appliedGeneration" INTEGER,
    "lastTaskId" TEXT,
    "checkedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "instance_firewalls_pkey" PRIMARY KEY ("instanceId")
);

-- CreateTable
CREATE TABLE "firewall_groups" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "rules" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "firewall_groups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "instance_firewalls_groupIds_idx" ON "instance_firewalls" USING GIN ("groupIds");

-- CreateIndex
CREATE INDEX "instance_firewalls_checkedAt_idx" ON "instance_firewalls"("checkedAt");

-- CreateIndex
CREATE INDEX "firewall_groups_tenantId_createdAt_id_idx" ON "firewall_groups"("tenantId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "firewall_groups_tenantId_name_key" ON "firewall_groups"("tenantId", "name");

-- AddForeignKey
ALTER TABLE "instance_firewalls" ADD CONSTRAINT "instance_firewalls_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "firewall_groups" ADD CONSTRAINT "firewall_groups_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
