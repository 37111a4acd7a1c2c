-- CreateTable
CREATE TABLE "rate_limit_counters" (
    "tokenId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("tokenId","action","windowStart")
);

-- CreateTable
CREATE TABLE "event_stream_leases" (
    "id" TEXT NOT NULL,
    "tokenId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "event_stream_leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "rate_limit_counters_windowStart_idx" ON "rate_limit_counters"("windowStart");

-- CreateIndex
CREATE INDEX "event_stream_leases_tokenId_expiresAt_idx" ON "event_stream_leases"("tokenId", "expiresAt");

