-- Up Migration
-- Tables written only by the gateway (the control plane: accounts, credentials,
-- projects, tiles, notification services). Other services read them.

CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- NULL: the environment's default per-account hourly request limit.
  hourly_request_limit integer CHECK (hourly_request_limit > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  -- SHA-256 of the token; the token itself is shown once and never stored.
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE INDEX users_account_id_idx ON users (account_id);

CREATE TABLE projects (
  project_key text PRIMARY KEY CHECK (project_key ~ '^[a-z0-9][a-z0-9_-]{0,99}$'),
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  api_key_hash bytea NOT NULL UNIQUE,
  -- The first characters of the key, so a person can tell keys apart.
  api_key_prefix text NOT NULL,
  -- Bumped on every change a gateway caches (key, limits); gateways compare it
  -- with Redis on each request, so no instance serves a stale key or limit.
  revision bigint NOT NULL DEFAULT 1,
  burst_limit integer CHECK (burst_limit > 0),
  hourly_request_limit integer CHECK (hourly_request_limit > 0),
  monthly_quota integer NOT NULL DEFAULT 10000 CHECK (monthly_quota >= 0),
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  deleted_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX projects_account_id_idx ON projects (account_id);

-- Event ids are handed out in blocks of 1000 (nextval reserves [v, v+999]):
-- one round trip per thousand events, never reused after any restart.
CREATE SEQUENCE event_id_blocks INCREMENT BY 1000 MINVALUE 1 START WITH 1 NO CYCLE;

CREATE TABLE tiles (
  id bigserial PRIMARY KEY,
  project_key text NOT NULL REFERENCES projects (project_key) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL,
  rule jsonb NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tiles_project_key_idx ON tiles (project_key, position, id);

CREATE TABLE notification_services (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('webhook', 'slack', 'email')),
  config jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_services_account_id_idx ON notification_services (account_id);

-- Down Migration
DROP TABLE notification_services;
DROP TABLE tiles;
DROP SEQUENCE event_id_blocks;
DROP TABLE projects;
DROP TABLE users;
DROP TABLE accounts;
