-- AlterTable
ALTER TABLE "instances" ADD COLUMN     "vmidSince" TIMESTAMP(3);


-- Servers that hold a VMID already took it in their create (or a later quarantine, which the create time precedes).
UPDATE "instances" SET "vmidSince" = "createdAt" WHERE "vmid" IS NOT NULL;
