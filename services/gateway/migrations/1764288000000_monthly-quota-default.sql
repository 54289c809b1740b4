-- Up Migration
-- A new project's quota is the gateway's DEFAULT_MONTHLY_QUOTA, which the admin
-- API always passes: the default lives in the gateway's environment schema only.
ALTER TABLE projects ALTER COLUMN monthly_quota DROP DEFAULT;

-- Down Migration
ALTER TABLE projects ALTER COLUMN monthly_quota SET DEFAULT 10000;
