-- A tenant owner's invitation names the email and role of a user made on acceptance.
ALTER TABLE "user_invites" ALTER COLUMN "userId" DROP NOT NULL;
ALTER TABLE "user_invites" ADD COLUMN "tenantId" TEXT;
ALTER TABLE "user_invites" ADD COLUMN "email" TEXT;
ALTER TABLE "user_invites" ADD COLUMN "tenantRole" "TenantRole";
ALTER TABLE "user_invites" ADD COLUMN "revokedAt" TIMESTAMP(3);
-- Sealed with the encryption key ring, for the `user.invited` webhook only.
ALTER TABLE "user_invites" ADD COLUMN "linkCipher" TEXT;
UPDATE "user_invites" i SET "tenantId" = u."tenantId", "email" = u."email" FROM "users" u WHERE u."id" = i."userId";
ALTER TABLE "user_invites" ALTER COLUMN "email" SET NOT NULL;
CREATE INDEX "user_invites_tenantId_createdAt_idx" ON "user_invites"("tenantId", "createdAt");

-- Who acted, by which token or session, from which address.
ALTER TABLE "audit_events" ADD COLUMN "actorTokenId" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "actorSessionId" TEXT;
ALTER TABLE "audit_events" ADD COLUMN "actorAddress" TEXT;
CREATE INDEX "audit_events_tenantId_id_idx" ON "audit_events"("tenantId", "id");
