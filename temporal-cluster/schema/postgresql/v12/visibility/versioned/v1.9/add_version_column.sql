ALTER TABLE executions_visibility ADD COLUMN _version BIGINT NOT NULL DEFAULT 0;
