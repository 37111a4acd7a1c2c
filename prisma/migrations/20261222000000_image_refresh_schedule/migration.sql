-- How often a URL image's checksum URL is read again by its Temporal Schedule (null: only on request).
ALTER TABLE "images" ADD COLUMN "refreshIntervalSeconds" INTEGER;
