-- Up Migration
-- The most a user token may set a project's limits and quota to (issue 24):
-- set by the operator through the admin API; NULL: the environment's
-- ACCOUNT_MAX_* ceiling. The admin API itself is not bound by them.
ALTER TABLE accounts
  ADD COLUMN max_monthly_quota integer CHECK (max_monthly_quota >= 0),
  ADD COLUMN max_burst_limit integer CHECK (max_burst_limit >= 1),
  ADD COLUMN max_hourly_request_limit integer CHECK (max_hourly_request_limit >= 1);

-- Down Migration
ALTER TABLE accounts DROP COLUMN max_monthly_quota, DROP COLUMN max_burst_limit, DROP COLUMN max_hourly_request_limit;
