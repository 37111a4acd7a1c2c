-- What a token may do besides reading. Empty, as for every existing token, is all its user may.
ALTER TABLE "api_tokens" ADD COLUMN "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[];
