-- AlterTable
ALTER TABLE "console_sessions" ADD COLUMN     "leaseExpiresAt" TIMESTAMP(3);

