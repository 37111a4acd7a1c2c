-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "failureCause" JSONB;

