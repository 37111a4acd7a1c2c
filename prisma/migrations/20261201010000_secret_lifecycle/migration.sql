-- AlterTable
ALTER TABLE "users" ADD COLUMN     "disabledAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "bootstrap" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "name" TEXT;

-- AlterTable
ALTER TABLE "proxmox_connections" ADD COLUMN     "plaintextLab" BOOLEAN NOT NULL DEFAULT false;


-- Tokens of the bootstrap administrator made before this column existed came from BOOTSTRAP_ADMIN_TOKEN.
UPDATE "api_tokens" SET "bootstrap" = true
WHERE "userId" IN (SELECT "id" FROM "users" WHERE "email" = 'admin@localhost');

-- Connections already working over plain http keep working: they are labs by their own URL.
UPDATE "proxmox_connections" SET "plaintextLab" = true WHERE "url" LIKE 'http:%';
