-- AlterTable
ALTER TABLE "ip_addresses" ADD COLUMN     "releasedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "vmid_reservations" ADD COLUMN     "releasedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "ip_addresses_poolId_state_ordinal_idx" ON "ip_addresses"("poolId", "state", "ordinal");

-- CreateIndex
CREATE INDEX "vmid_reservations_connectionId_state_vmid_idx" ON "vmid_reservations"("connectionId", "state", "vmid");
