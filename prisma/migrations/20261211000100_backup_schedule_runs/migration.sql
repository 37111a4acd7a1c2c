-- AlterTable
ALTER TABLE "backup_schedules" ADD COLUMN     "changeDayRunsAt" TIMESTAMP(3)[] DEFAULT ARRAY[]::TIMESTAMP(3)[],
ADD COLUMN     "countedRunAt" TIMESTAMP(3),
ADD COLUMN     "countedRunId" TEXT;

