-- CreateEnum
CREATE TYPE "PasswordCheck" AS ENUM ('sign_in', 'password_change', 'invite');

-- DropIndex
DROP INDEX "login_attempts_address_at_idx";

-- AlterTable
ALTER TABLE "login_attempts" ADD COLUMN     "addressPrefix" TEXT,
ADD COLUMN     "kind" "PasswordCheck" NOT NULL DEFAULT 'sign_in',
ALTER COLUMN "email" DROP NOT NULL;

-- Earlier attempts count by their exact address until they leave the lockout window (a day at most).
UPDATE "login_attempts" SET "addressPrefix" = "address";
ALTER TABLE "login_attempts" ALTER COLUMN "addressPrefix" SET NOT NULL;

-- CreateIndex
CREATE INDEX "login_attempts_addressPrefix_at_idx" ON "login_attempts"("addressPrefix", "at");
