-- SSH public keys saved on a user's account.
CREATE TABLE "ssh_keys" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "bits" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ssh_keys_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ssh_keys_userId_fingerprint_key" ON "ssh_keys"("userId", "fingerprint");
CREATE INDEX "ssh_keys_userId_createdAt_idx" ON "ssh_keys"("userId", "createdAt");

ALTER TABLE "ssh_keys" ADD CONSTRAINT "ssh_keys_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
