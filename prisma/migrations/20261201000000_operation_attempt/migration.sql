-- AlterTable
ALTER TABLE "provider_operations" ADD COLUMN     "attempt" INTEGER;

