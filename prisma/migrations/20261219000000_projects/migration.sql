-- Projects: every server belongs to one project of its tenant.
CREATE TYPE "ProjectRole" AS ENUM ('owner', 'member', 'viewer');

CREATE TABLE "projects" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "allowedPlanIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "allowedImageIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "allowedLocationIds" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "quotaInstances" INTEGER,
    "quotaVcpus" INTEGER,
    "quotaMemoryMiB" INTEGER,
    "quotaDiskGiB" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "projects_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "projects_quota_whole" CHECK (num_nulls("quotaInstances", "quotaVcpus", "quotaMemoryMiB", "quotaDiskGiB") IN (0, 4))
);
-- The check: a project has its own quota with all four limits, or none.
CREATE UNIQUE INDEX "projects_tenantId_name_key" ON "projects"("tenantId", "name");
-- One default project per tenant.
CREATE UNIQUE INDEX "projects_one_default_per_tenant" ON "projects"("tenantId") WHERE "isDefault";
ALTER TABLE "projects" ADD CONSTRAINT "projects_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "project_members" (
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "ProjectRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "project_members_pkey" PRIMARY KEY ("projectId", "userId")
);
CREATE INDEX "project_members_userId_idx" ON "project_members"("userId");
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Every existing tenant gets its default project, and every server of the tenant lands in it.
INSERT INTO "projects" ("id", "tenantId", "name", "isDefault", "updatedAt")
SELECT new_id('prj'), "id", 'Default', true, CURRENT_TIMESTAMP FROM "tenants";

ALTER TABLE "instances" ADD COLUMN "projectId" TEXT;
UPDATE "instances" i SET "projectId" = p."id" FROM "projects" p WHERE p."tenantId" = i."tenantId" AND p."isDefault";
ALTER TABLE "instances" ALTER COLUMN "projectId" SET NOT NULL;
CREATE INDEX "instances_projectId_idx" ON "instances"("projectId");
ALTER TABLE "instances" ADD CONSTRAINT "instances_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "projects"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A token limited to one project (none so far).
ALTER TABLE "api_tokens" ADD COLUMN "projectId" TEXT;
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
