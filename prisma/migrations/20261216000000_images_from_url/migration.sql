-- CreateEnum
CREATE TYPE "ImageBuildState" AS ENUM ('importing', 'ready', 'failed');

-- AlterTable
ALTER TABLE "images" ADD COLUMN     "sourceUrl" TEXT,
ADD COLUMN     "checksumUrl" TEXT,
ADD COLUMN     "checksumAlgorithm" TEXT,
ADD COLUMN     "importStorage" TEXT,
ADD COLUMN     "locationIds" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "image_versions" (
    "id" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "checksum" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "image_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "image_builds" (
    "id" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "state" "ImageBuildState" NOT NULL,
    "storage" TEXT,
    "downloadKey" TEXT,
    "fileVolid" TEXT,
    "templateVmid" INTEGER,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "retiredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "image_builds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_jobs" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "upid" TEXT,
    "attempt" INTEGER,
    "status" "OperationStatus" NOT NULL,
    "exitStatus" TEXT,
    "progress" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "provider_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "image_versions_imageId_number_key" ON "image_versions"("imageId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "image_builds_versionId_connectionId_node_key" ON "image_builds"("versionId", "connectionId", "node");

-- CreateIndex
CREATE UNIQUE INDEX "image_builds_connectionId_templateVmid_key" ON "image_builds"("connectionId", "templateVmid");

-- CreateIndex
CREATE UNIQUE INDEX "provider_jobs_key_key" ON "provider_jobs"("key");

-- CreateIndex
CREATE UNIQUE INDEX "provider_jobs_upid_key" ON "provider_jobs"("upid");

-- AddForeignKey
ALTER TABLE "image_versions" ADD CONSTRAINT "image_versions_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "images"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_builds" ADD CONSTRAINT "image_builds_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "image_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_builds" ADD CONSTRAINT "image_builds_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "proxmox_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
