-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "archivedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "images" ADD COLUMN     "archivedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "proxmox_connections" ADD COLUMN     "archivedAt" TIMESTAMP(3),
ADD COLUMN     "snippetsDirectory" TEXT,
ADD COLUMN     "snippetsStorage" TEXT;

-- AlterTable
ALTER TABLE "nodes" ADD COLUMN     "draining" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "locations" ADD COLUMN     "archivedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "ip_pools" ADD COLUMN     "archivedAt" TIMESTAMP(3);

