-- AlterEnum
ALTER TYPE "SlotState" ADD VALUE 'quarantined';

-- AlterTable
ALTER TABLE "proxmox_connections" ADD COLUMN     "clusterName" TEXT;

-- AlterTable
ALTER TABLE "vmid_reservations" ADD COLUMN     "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "quarantinedAt" TIMESTAMP(3),
ADD COLUMN     "quarantinedFor" TEXT,
ADD COLUMN     "strangerName" TEXT,
ADD COLUMN     "strangerNode" TEXT;

-- CreateIndex
CREATE INDEX "vmid_reservations_quarantinedFor_idx" ON "vmid_reservations"("quarantinedFor");

