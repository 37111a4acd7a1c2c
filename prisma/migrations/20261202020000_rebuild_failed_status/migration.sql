-- AlterEnum
ALTER TYPE "InstanceStatus" ADD VALUE 'rebuild_failed';

