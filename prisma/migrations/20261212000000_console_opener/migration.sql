-- AlterTable
ALTER TABLE "console_sessions" ADD COLUMN     "openedBySessionId" TEXT,
ADD COLUMN     "openedByTokenId" TEXT;

