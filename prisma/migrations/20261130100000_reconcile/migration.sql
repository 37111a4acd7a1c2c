-- CreateEnum
CREATE TYPE "OrphanStatus" AS ENUM ('open', 'destroying', 'destroyed', 'forgotten', 'gone');

-- AlterEnum
ALTER TYPE "InstanceStatus" ADD VALUE 'lost';

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "workflowArgs" JSONB,
ADD COLUMN     "workflowStartedAt" TIMESTAMP(3),
ADD COLUMN     "workflowType" TEXT;

-- CreateTable
CREATE TABLE "orphan_guests" (
    "id" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "vmid" INTEGER NOT NULL,
    "name" TEXT,
    "ownerInstanceId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" "OrphanStatus" NOT NULL,
    "openKey" TEXT,
    "workflowId" TEXT,
    "stopUpid" TEXT,
    "destroyUpid" TEXT,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),
    "resolvedBy" TEXT,

    CONSTRAINT "orphan_guests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "orphan_guests_openKey_key" ON "orphan_guests"("openKey");

-- CreateIndex
CREATE INDEX "orphan_guests_connectionId_vmid_idx" ON "orphan_guests"("connectionId", "vmid");

-- CreateIndex
CREATE INDEX "tasks_workflowStartedAt_status_idx" ON "tasks"("workflowStartedAt", "status");

-- AddForeignKey
ALTER TABLE "orphan_guests" ADD CONSTRAINT "orphan_guests_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "proxmox_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

