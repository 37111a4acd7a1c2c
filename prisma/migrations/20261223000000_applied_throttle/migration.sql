-- The throttle our last throttle or unthrottle operation wrote: a throttle in force was written by one.
ALTER TABLE "instances" ADD COLUMN "appliedThrottleMbps" INTEGER;
UPDATE "instances" SET "appliedThrottleMbps" = "throttleMbps" WHERE "throttleMbps" IS NOT NULL;
