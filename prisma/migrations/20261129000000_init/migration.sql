-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('customer', 'admin');

-- CreateEnum
CREATE TYPE "LoginMethod" AS ENUM ('password', 'ssh');

-- CreateEnum
CREATE TYPE "AllocationState" AS ENUM ('reserved', 'allocated', 'released');

-- CreateEnum
CREATE TYPE "SlotState" AS ENUM ('free', 'reserved', 'assigned');

-- CreateEnum
CREATE TYPE "InstanceStatus" AS ENUM ('pending', 'scheduling', 'provisioning', 'running', 'starting', 'stopping', 'stopped', 'rebooting', 'resizing', 'rebuilding', 'migrating', 'deleting', 'deleted', 'failed', 'rollback_failed');

-- CreateEnum
CREATE TYPE "DesiredState" AS ENUM ('running', 'stopped', 'deleted');

-- CreateEnum
CREATE TYPE "CredentialType" AS ENUM ('PASSWORD', 'SSH_KEY', 'PASSWORD_AND_SSH_KEY', 'IMAGE_DEFINED');

-- CreateEnum
CREATE TYPE "VolumeStatus" AS ENUM ('pending', 'ready', 'errored', 'deleted');

-- CreateEnum
CREATE TYPE "TaskStatus" AS ENUM ('pending', 'running', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "StepStatus" AS ENUM ('processing', 'success', 'warning', 'error');

-- CreateEnum
CREATE TYPE "OperationStatus" AS ENUM ('issuing', 'running', 'succeeded', 'failed', 'unknown');

-- CreateTable
CREATE TABLE "tenants" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "quotaInstances" INTEGER NOT NULL,
    "quotaVcpus" INTEGER NOT NULL,
    "quotaMemoryMiB" INTEGER NOT NULL,
    "quotaDiskGiB" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tenants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT,
    "email" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "plans" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "vcpus" INTEGER NOT NULL,
    "memoryMiB" INTEGER NOT NULL,
    "diskGiB" INTEGER NOT NULL,
    "defaultUsername" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "plans_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "images" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "os" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "loginMethods" "LoginMethod"[],
    "defaultUsername" TEXT,
    "rootAllowed" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "images_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "image_templates" (
    "id" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "templateVmid" INTEGER NOT NULL,

    CONSTRAINT "image_templates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "proxmox_connections" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "tokenId" TEXT NOT NULL,
    "tokenSecretCipher" TEXT NOT NULL,
    "caCert" TEXT,
    "insecureTls" BOOLEAN NOT NULL DEFAULT false,
    "storage" TEXT NOT NULL DEFAULT 'local-lvm',
    "vmidStart" INTEGER NOT NULL,
    "vmidEnd" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "proxmox_connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "nodes" (
    "id" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "vcpus" INTEGER NOT NULL,
    "memoryMiB" INTEGER NOT NULL,
    "diskGiB" INTEGER NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "node_allocations" (
    "id" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "vcpus" INTEGER NOT NULL,
    "memoryMiB" INTEGER NOT NULL,
    "diskGiB" INTEGER NOT NULL,
    "state" "AllocationState" NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "node_allocations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "locations" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "locations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ip_pools" (
    "id" TEXT NOT NULL,
    "cidr" TEXT NOT NULL,
    "family" INTEGER NOT NULL,
    "gateway" TEXT NOT NULL,
    "bridge" TEXT NOT NULL,
    "vlan" INTEGER,
    "dns" TEXT[],
    "locationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ip_pools_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ip_addresses" (
    "id" TEXT NOT NULL,
    "poolId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "ordinal" BIGINT NOT NULL,
    "family" INTEGER NOT NULL,
    "instanceId" TEXT,
    "state" "SlotState" NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ip_addresses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vmid_reservations" (
    "id" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "vmid" INTEGER NOT NULL,
    "instanceId" TEXT,
    "state" "SlotState" NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "vmid_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "instances" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "status" "InstanceStatus" NOT NULL,
    "desiredState" "DesiredState" NOT NULL,
    "planId" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "imageId" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "node" TEXT,
    "vmid" INTEGER,
    "templateVmid" INTEGER,
    "macAddress" TEXT,
    "username" TEXT NOT NULL,
    "sshKeys" TEXT[],
    "userData" TEXT,
    "credentialType" "CredentialType" NOT NULL,
    "chargedVcpus" INTEGER NOT NULL,
    "chargedMemoryMiB" INTEGER NOT NULL,
    "chargedDiskGiB" INTEGER NOT NULL,
    "quotaReleasedAt" TIMESTAMP(3),
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "failureCause" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "instances_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "volumes" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'root',
    "disk" TEXT NOT NULL DEFAULT 'scsi0',
    "sizeGiB" INTEGER NOT NULL,
    "storage" TEXT NOT NULL,
    "status" "VolumeStatus" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "volumes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tasks" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "activeInstanceId" TEXT,
    "tenantId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" "TaskStatus" NOT NULL,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "currentStep" TEXT,
    "workflowId" TEXT NOT NULL,
    "params" JSONB,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_steps" (
    "id" BIGSERIAL NOT NULL,
    "taskId" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "status" "StepStatus" NOT NULL,
    "message" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_operations" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "vmid" INTEGER NOT NULL,
    "upid" TEXT,
    "status" "OperationStatus" NOT NULL,
    "exitStatus" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "provider_operations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credentials" (
    "id" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "username" TEXT NOT NULL,
    "secretCipher" TEXT,
    "sshKeys" TEXT[],
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revealedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "credentials_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "instanceId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rate_limit_events" (
    "id" BIGSERIAL NOT NULL,
    "userId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rate_limit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorUserId" TEXT,
    "tenantId" TEXT,
    "instanceId" TEXT,
    "action" TEXT NOT NULL,
    "details" JSONB,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_tokenHash_key" ON "api_tokens"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "plans_name_key" ON "plans"("name");

-- CreateIndex
CREATE UNIQUE INDEX "images_name_key" ON "images"("name");

-- CreateIndex
CREATE UNIQUE INDEX "image_templates_imageId_connectionId_node_key" ON "image_templates"("imageId", "connectionId", "node");

-- CreateIndex
CREATE UNIQUE INDEX "proxmox_connections_name_key" ON "proxmox_connections"("name");

-- CreateIndex
CREATE UNIQUE INDEX "nodes_connectionId_name_key" ON "nodes"("connectionId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "node_allocations_instanceId_key" ON "node_allocations"("instanceId");

-- CreateIndex
CREATE INDEX "node_allocations_nodeId_state_idx" ON "node_allocations"("nodeId", "state");

-- CreateIndex
CREATE UNIQUE INDEX "locations_name_key" ON "locations"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ip_pools_cidr_key" ON "ip_pools"("cidr");

-- CreateIndex
CREATE UNIQUE INDEX "ip_addresses_poolId_address_key" ON "ip_addresses"("poolId", "address");

-- CreateIndex
CREATE UNIQUE INDEX "ip_addresses_poolId_ordinal_key" ON "ip_addresses"("poolId", "ordinal");

-- CreateIndex
CREATE UNIQUE INDEX "ip_addresses_instanceId_family_key" ON "ip_addresses"("instanceId", "family");

-- CreateIndex
CREATE UNIQUE INDEX "vmid_reservations_instanceId_key" ON "vmid_reservations"("instanceId");

-- CreateIndex
CREATE UNIQUE INDEX "vmid_reservations_connectionId_vmid_key" ON "vmid_reservations"("connectionId", "vmid");

-- CreateIndex
CREATE INDEX "instances_tenantId_createdAt_id_idx" ON "instances"("tenantId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "instances_status_idx" ON "instances"("status");

-- CreateIndex
CREATE UNIQUE INDEX "tasks_activeInstanceId_key" ON "tasks"("activeInstanceId");

-- CreateIndex
CREATE INDEX "tasks_instanceId_createdAt_idx" ON "tasks"("instanceId", "createdAt");

-- CreateIndex
CREATE INDEX "task_steps_taskId_id_idx" ON "task_steps"("taskId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "task_steps_taskId_step_status_key" ON "task_steps"("taskId", "step", "status");

-- CreateIndex
CREATE UNIQUE INDEX "provider_operations_upid_key" ON "provider_operations"("upid");

-- CreateIndex
CREATE INDEX "provider_operations_instanceId_idx" ON "provider_operations"("instanceId");

-- CreateIndex
CREATE UNIQUE INDEX "provider_operations_taskId_kind_key" ON "provider_operations"("taskId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "credentials_instanceId_key" ON "credentials"("instanceId");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_keys_userId_key_key" ON "idempotency_keys"("userId", "key");

-- CreateIndex
CREATE INDEX "rate_limit_events_userId_action_at_idx" ON "rate_limit_events"("userId", "action", "at");

-- CreateIndex
CREATE INDEX "audit_events_instanceId_at_idx" ON "audit_events"("instanceId", "at");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_templates" ADD CONSTRAINT "image_templates_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "images"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "image_templates" ADD CONSTRAINT "image_templates_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "proxmox_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "nodes" ADD CONSTRAINT "nodes_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "proxmox_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "node_allocations" ADD CONSTRAINT "node_allocations_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "nodes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "node_allocations" ADD CONSTRAINT "node_allocations_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "locations" ADD CONSTRAINT "locations_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "proxmox_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ip_pools" ADD CONSTRAINT "ip_pools_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ip_addresses" ADD CONSTRAINT "ip_addresses_poolId_fkey" FOREIGN KEY ("poolId") REFERENCES "ip_pools"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ip_addresses" ADD CONSTRAINT "ip_addresses_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vmid_reservations" ADD CONSTRAINT "vmid_reservations_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "proxmox_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vmid_reservations" ADD CONSTRAINT "vmid_reservations_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_planId_fkey" FOREIGN KEY ("planId") REFERENCES "plans"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "locations"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "images"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "proxmox_connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "volumes" ADD CONSTRAINT "volumes_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_activeInstanceId_fkey" FOREIGN KEY ("activeInstanceId") REFERENCES "instances"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_steps" ADD CONSTRAINT "task_steps_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "tasks"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_operations" ADD CONSTRAINT "provider_operations_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_operations" ADD CONSTRAINT "provider_operations_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "tasks"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "credentials" ADD CONSTRAINT "credentials_instanceId_fkey" FOREIGN KEY ("instanceId") REFERENCES "instances"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

