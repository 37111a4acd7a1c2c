-- CreateEnum
CREATE TYPE "ConsoleType" AS ENUM ('vnc', 'serial');

-- CreateTable
CREATE TABLE "console_sessions" (
    "id" TEXT NOT NULL,
    "ticketHash" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "tenantId" TEXT,
    "userId" TEXT NOT NULL,
    "type" "ConsoleType" NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "redeemedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "closeReason" TEXT,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "console_sessions_ticketHash_key" ON "console_sessions"("ticketHash");

-- CreateIndex
CREATE INDEX "console_sessions_userId_createdAt_idx" ON "console_sessions"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "console_sessions_instanceId_createdAt_idx" ON "console_sessions"("instanceId", "createdAt");
