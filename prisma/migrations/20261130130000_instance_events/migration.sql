-- CreateTable
CREATE TABLE "instance_events" (
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "tenantId" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "instance_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "instance_events_seq_key" ON "instance_events"("seq");

-- CreateIndex
CREATE INDEX "instance_events_tenantId_seq_idx" ON "instance_events"("tenantId", "seq");

-- CreateIndex
CREATE INDEX "instance_events_instanceId_seq_idx" ON "instance_events"("instanceId", "seq");

