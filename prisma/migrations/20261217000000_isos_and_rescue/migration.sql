-- CreateEnum
CREATE TYPE "BootDevice" AS ENUM ('disk', 'cdrom');

-- CreateEnum
CREATE TYPE "IsoCopyState" AS ENUM ('importing', 'ready', 'failed', 'deleting');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "InstanceStatus" ADD VALUE 'rescue';
ALTER TYPE "InstanceStatus" ADD VALUE 'entering_rescue';
ALTER TYPE "InstanceStatus" ADD VALUE 'leaving_rescue';
ALTER TYPE "InstanceStatus" ADD VALUE 'configuring_boot';

-- AlterTable
ALTER TABLE "locations" ADD COLUMN     "isoStorage" TEXT,
ADD COLUMN     "isoStorageShared" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "instances" ADD COLUMN     "bootFirst" "BootDevice" NOT NULL DEFAULT 'disk',
ADD COLUMN     "isoId" TEXT,
ADD COLUMN     "rescueSince" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "rescue_credentials" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "secretCipher" TEXT,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revealedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rescue_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "isos" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "checksum" TEXT NOT NULL,
    "checksumAlgorithm" TEXT NOT NULL,
    "tenantId" TEXT,
    "rescue" BOOLEAN NOT NULL DEFAULT false,
    "fileName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "isos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "iso_copies" (
    "id" TEXT NOT NULL,
    "isoId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "storage" TEXT NOT NULL,
    "node" TEXT,
    "state" "IsoCopyState" NOT NULL,
    "failureMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "iso_copies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "rescue_credentials_instanceId_key" ON "rescue_credentials"("instanceId");

-- CreateIndex
CREATE INDEX "isos_tenantId_idx" ON "isos"("tenantId");

-- CreateIndex
CREATE INDEX "iso_copies_locationId_state_idx" ON "iso_copies"("locationId", "state");

-- CreateIndex
CREATE UNIQUE INDEX "iso_copies_isoId_locationId_storage_node_key" ON "iso_copies"("isoId", "locationId", "storage", "node");

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_isoId_fkey" FOREIGN KEY ("isoId") REFERENCES "isos"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rescue_credentials" ADD CONSTRAINT "rescue_credentials_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "isos" ADD CONSTRAINT "isos_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "iso_copies" ADD CONSTRAINT "iso_copies_isoId_fkey" FOREIGN KEY ("isoId") REFERENCES "isos"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "iso_copies" ADD CONSTRAINT "iso_copies_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

