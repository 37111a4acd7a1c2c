-- CreateEnum
CREATE TYPE "TrafficCounted" AS ENUM ('out', 'in_out', 'max');

-- CreateEnum
CREATE TYPE "TrafficOverage" AS ENUM ('throttle', 'none');

-- CreateEnum
CREATE TYPE "BillingPeriod" AS ENUM ('calendar_month', 'anniversary');

-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "trafficAllowanceGiB" INTEGER,
ADD COLUMN     "trafficCounted" "TrafficCounted" NOT NULL DEFAULT 'out',
ADD COLUMN     "trafficOverage" "TrafficOverage" NOT NULL DEFAULT 'none',
ADD COLUMN     "throttleMbps" INTEGER,
ADD COLUMN     "billingPeriod" "BillingPeriod" NOT NULL DEFAULT 'calendar_month';

-- AlterTable
ALTER TABLE "instances" ADD COLUMN     "throttleMbps" INTEGER,
ADD COLUMN     "throttledAt" TIMESTAMP(3),
ADD COLUMN     "throttleUntil" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "traffic_counters" (
    "instanceId" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "vmid" INTEGER NOT NULL,
    "netin" BIGINT NOT NULL,
    "netout" BIGINT NOT NULL,
    "uptime" INTEGER NOT NULL,
    "sampledAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "traffic_counters_pkey" PRIMARY KEY ("instanceId")
);

-- CreateTable
CREATE TABLE "usage_hours" (
    "instanceId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "inBytes" BIGINT NOT NULL DEFAULT 0,
    "outBytes" BIGINT NOT NULL DEFAULT 0,
    "running" BOOLEAN NOT NULL DEFAULT false,
    "addresses" INTEGER NOT NULL DEFAULT 0,
    "backupBytes" BIGINT NOT NULL DEFAULT 0,
    "snapshotCount" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "usage_hours_pkey" PRIMARY KEY ("instanceId","hour")
);

-- CreateTable
CREATE TABLE "traffic_periods" (
    "instanceId" TEXT NOT NULL,
    "periodStart" TIMESTAMP(3) NOT NULL,
    "periodEnd" TIMESTAMP(3) NOT NULL,
    "extraAllowanceGiB" INTEGER NOT NULL DEFAULT 0,
    "warnedAt" TIMESTAMP(3),
    "exceededAt" TIMESTAMP(3),
    "liftedAt" TIMESTAMP(3),

    CONSTRAINT "traffic_periods_pkey" PRIMARY KEY ("instanceId","periodStart")
);

-- CreateTable
CREATE TABLE "instance_plan_changes" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "fromPlanId" TEXT NOT NULL,
    "toPlanId" TEXT NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instance_plan_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "usage_hours_tenantId_hour_idx" ON "usage_hours"("tenantId", "hour");

-- CreateIndex
CREATE INDEX "usage_hours_hour_idx" ON "usage_hours"("hour");

-- CreateIndex
CREATE INDEX "instance_plan_changes_instanceId_changedAt_idx" ON "instance_plan_changes"("instanceId", "changedAt");

-- AddForeignKey
ALTER TABLE "traffic_counters" ADD CONSTRAINT "traffic_counters_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_hours" ADD CONSTRAINT "usage_hours_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "traffic_periods" ADD CONSTRAINT "traffic_periods_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instance_plan_changes" ADD CONSTRAINT "instance_plan_changes_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
