-- AlterTable
ALTER TABLE "instances" ADD COLUMN     "restoredFromBackupId" TEXT;
