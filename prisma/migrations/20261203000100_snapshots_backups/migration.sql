-- CreateEnum
CREATE TYPE "SnapshotStatus" AS ENUM ('creating', 'available', 'deleting', 'deleted', 'failed');

-- CreateEnum
CREATE TYPE "BackupStatus" AS ENUM ('pending', 'running', 'available', 'failed', 'lost', 'deleting', 'deleted');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "InstanceStatus" ADD VALUE 'snapshotting';
ALTER TYPE "InstanceStatus" ADD VALUE 'rolling_back';
ALTER TYPE "InstanceStatus" ADD VALUE 'backing_up';
ALTER TYPE "InstanceStatus" ADD VALUE 'restoring';

-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "backupLimit" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "snapshotLimit" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "locations" ADD COLUMN     "backupStorage" TEXT,
ADD COLUMN     "snapshotsSupported" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "snapshots" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "vmstate" BOOLEAN NOT NULL DEFAULT false,
    "status" "SnapshotStatus" NOT NULL,
    "liveKey" TEXT,
    "taskId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "backups" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "storage" TEXT NOT NULL,
    "volid" TEXT,
    "vmid" INTEGER NOT NULL,
    "status" "BackupStatus" NOT NULL,
    "external" BOOLEAN NOT NULL DEFAULT false,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "notes" TEXT,
    "sizeBytes" BIGINT,
    "taskId" TEXT,
    "runningOnNode" TEXT,
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "kept" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),
    "deletedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "backups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "snapshots_liveKey_key" ON "snapshots"("liveKey");

-- CreateIndex
CREATE INDEX "snapshots_instanceId_createdAt_idx" ON "snapshots"("instanceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "backups_runningOnNode_key" ON "backups"("runningOnNode");

-- CreateIndex
CREATE INDEX "backups_instanceId_createdAt_idx" ON "backups"("instanceId", "createdAt");

-- CreateIndex
CREATE INDEX "backups_tenantId_status_idx" ON "backups"("tenantId", "status");

-- CreateIndex
CREATE INDEX "backups_connectionId_status_idx" ON "backups"("connectionId", "status");

-- AddForeignKey
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "backups" ADD CONSTRAINT "backups_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

