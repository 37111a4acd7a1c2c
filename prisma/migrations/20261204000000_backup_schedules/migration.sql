-- CreateEnum
CREATE TYPE "BackupFrequency" AS ENUM ('daily', 'weekly');

-- AlterTable
ALTER TABLE "backups" ADD COLUMN     "scheduled" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "backup_schedules" (
    "instanceId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "frequency" "BackupFrequency" NOT NULL,
    "time" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    "weekday" TEXT,
    "keepLast" INTEGER NOT NULL,
    "createdByUserId" TEXT NOT NULL,
    "lastRunAt" TIMESTAMP(3),
    "lastBackupId" TEXT,
    "lastRefusalCode" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "backup_schedules_pkey" PRIMARY KEY ("instanceId")
);

-- AddForeignKey
ALTER TABLE "backup_schedules" ADD CONSTRAINT "backup_schedules_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
